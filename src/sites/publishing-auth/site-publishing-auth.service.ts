import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { newSecret } from '../../platform/ids/ids';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import { SealedText } from '../../platform/settings/sealed-text';
import { Site } from '../entities/site.entity';
import { SitePublishingAuth } from '../entities/site-publishing-auth.entity';
import { UpdateSitePublishingAuthDto } from './site-publishing-auth.dto';
import { SitePublishingAuthRepository } from './site-publishing-auth.repository';

const SEAL_PURPOSE = 'site-publishing-auth-keys';

/** A site's visitor authentication, its key unsealed: what visitor tokens are checked with. */
export interface VisitorAuth {
  privateKey: string;
  fallbackURL: string | null;
  logoutURL: string | null;
}

/**
 * The visitor authentication of a site (GitBook's publishing auth, custom backend only): a
 * private key that the customer's login service signs visitor JWTs with, and where visitors go
 * to log in and out. The key is made on first read, 32 random bytes, and kept sealed.
 */
@Injectable()
export class SitePublishingAuthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: SitePublishingAuthRepository,
    private readonly sealed: SealedText,
    private readonly clock: Clock,
    private readonly revalidation: Revalidation,
  ) {}

  /** The site's settings, made with a new key if it has none yet. */
  get(site: Site): Promise<VisitorAuth> {
    return this.dataSource.transaction(async (tx) => this.unseal(await this.ensure(tx, site)));
  }

  /** `null` unsets a URL, an absent one stays as it is. */
  update(site: Site, input: UpdateSitePublishingAuthDto): Promise<VisitorAuth> {
    return this.dataSource.transaction(async (tx) => {
      const row = await this.ensure(tx, site);
      if (input.fallbackURL !== undefined) row.fallbackUrl = input.fallbackURL;
      if (input.logoutURL !== undefined) row.logoutUrl = input.logoutURL;
      row.updatedAt = this.clock.now();
      await this.repository.update(
        site.id,
        { fallbackUrl: row.fallbackUrl, logoutUrl: row.logoutUrl, updatedAt: row.updatedAt },
        tx,
      );
      // The login and logout URLs are part of the site as the renderer caches it.
      await this.revalidation.site(site.id, tx);
      return this.unseal(row);
    });
  }

  /** A new key: tokens signed with the old one stop opening the site at once. */
  async regenerate(site: Site): Promise<VisitorAuth> {
    const row = await this.repository.upsertKey(this.newRow(site));
    await this.revalidation.site(site.id);
    return this.unseal(row);
  }

  /**
   * For the published-content lookup: the site's key and URLs, or null when its visitor
   * authentication was never configured (read, updated or regenerated).
   */
  async visitorAuth(siteId: string): Promise<VisitorAuth | null> {
    const row = await this.repository.find(siteId);
    return row ? this.unseal(row) : null;
  }

  private async ensure(manager: EntityManager, site: Site): Promise<SitePublishingAuth> {
    const existing = await this.repository.find(site.id, manager);
    if (existing) return existing;
    await this.repository.insertIfAbsent(this.newRow(site), manager);
    return (await this.repository.find(site.id, manager)) as SitePublishingAuth;
  }

  private newRow(site: Site): SitePublishingAuth {
    const now = this.clock.now();
    return this.dataSource.manager.create(SitePublishingAuth, {
      siteId: site.id,
      privateKeySealed: this.sealed.seal(SEAL_PURPOSE, newSecret()),
      fallbackUrl: null,
      logoutUrl: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  private unseal(row: SitePublishingAuth): VisitorAuth {
    return {
      privateKey: this.sealed.unseal(SEAL_PURPOSE, row.privateKeySealed),
      fallbackURL: row.fallbackUrl,
      logoutURL: row.logoutUrl,
    };
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Organization } from '../orgs/entities/organization.entity';
import { OrganizationsRepository } from '../orgs/organizations.repository';
import type { AdminActor, UserActor } from '../platform/auth/actor';
import { BlobStore } from '../platform/blob-store/blob-store';
import { Clock } from '../platform/clock/clock';
import { DomainError, forbidden, invalidInput, notFound } from '../platform/errors/domain-error';
import { newId, sha256Hex } from '../platform/ids/ids';
import type { Page } from '../platform/pagination/page';
import type { ResolvedAccess } from '../platform/policy/access';
import { PolicyService } from '../platform/policy/policy.service';
import { SealedText } from '../platform/settings/sealed-text';
import type {
  IntegrationDevelopmentModeDto,
  ListIntegrationsQueryDto,
  PublishIntegrationDto,
} from './dto/publish-integration.dto';
import { IntegrationVersion } from './entities/integration-version.entity';
import { Integration } from './entities/integration.entity';
import { IntegrationsRepository } from './integrations.repository';
import { decodeImage } from './manifest/images';

/** The purpose the integrations' secrets are sealed under (SealedText). */
export const SECRETS_PURPOSE = 'integration-secrets';

/** Blob key of an integration image (icon, preview) by the SHA-256 of its bytes. */
export const imageBlobKey = (digest: string) => `integrations/images/${digest}`;

/** An integration with the organization that owns it and whether the caller administers it. */
export interface IntegrationView {
  integration: Integration;
  owner: Organization;
  admin: boolean;
}

const nameTaken = (name: string) =>
  new DomainError(
    'conflict',
    'IntegrationNameTaken',
    `The name ${name} is another organization's integration: choose another name.`,
  );

const onlyInstanceAdmin = (what: string) =>
  forbidden(
    `Only the instance administrator ${what}; an organization's admins publish private integrations.`,
  );

/**
 * Publishing integrations on this instance (GitBook's `gitbook publish`): their manifest and
 * script, who may publish and unpublish them, and development mode. The instance administrator
 * publishes any; an organization's admins publish its private ones.
 */
@Injectable()
export class IntegrationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly integrations: IntegrationsRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly policy: PolicyService,
    private readonly blobs: BlobStore,
    private readonly sealed: SealedText,
    private readonly clock: Clock,
  ) {}

  async publish(
    actor: UserActor | AdminActor,
    name: string,
    input: PublishIntegrationDto,
  ): Promise<IntegrationView> {
    const visibility = input.visibility ?? 'private';
    const owner = await this.ownerFor(actor, input.organization);
    if (actor.kind === 'user' && visibility !== 'private') {
      throw onlyInstanceAdmin('publishes public and unlisted integrations');
    }
    const icon = input.icon === undefined ? null : decodeImage('icon', input.icon);
    const previews = (input.previewImages ?? []).map((image, i) =>
      decodeImage(`previewImages.${i}`, image),
    );
    // Content-addressed: stored before the transaction, harmless if it then fails.
    const [iconDigest, ...previewDigests] = await Promise.all(
      [icon, ...previews].map((bytes) => (bytes ? this.storeImage(bytes) : null)),
    );

    const now = this.clock.now();
    const integration = await this.dataSource.transaction(async (manager) => {
      const existing = await this.integrations.findByName(name, manager, true);
      if (existing && existing.organizationId !== owner.id) throw nameTaken(name);
      if (existing && actor.kind === 'user' && existing.visibility !== 'private') {
        throw onlyInstanceAdmin('updates a public or unlisted integration');
      }
      const manifest = {
        runtime: input.runtime ?? 'v1',
        title: input.title,
        description: input.description,
        summary: input.summary ?? null,
        iconDigest: iconDigest ?? null,
        previewImageDigests: previewDigests.filter((digest): digest is string => digest !== null),
        visibility,
        target: input.target ?? 'all',
        scopes: [...new Set(input.scopes)],
        categories: [...new Set(input.categories ?? [])],
        blocks: input.blocks ?? [],
        contentSources: input.contentSources ?? [],
        externalLinks: input.externalLinks ?? [],
        configurations: input.configurations ?? {},
        contentSecurityPolicy: input.contentSecurityPolicy ?? null,
        secrets:
          input.secrets && Object.keys(input.secrets).length > 0
            ? this.sealed.seal(SECRETS_PURPOSE, JSON.stringify(input.secrets))
            : null,
        updatedAt: now,
      } satisfies Partial<Integration>;
      const saved: Integration = existing
        ? Object.assign(existing, manifest, { version: existing.version + 1 })
        : Object.assign(new Integration(), manifest, {
            id: newId(),
            name,
            organizationId: owner.id,
            version: 1,
            devTunnelUrl: null,
            devAll: false,
            createdAt: now,
          });
      if (existing) {
        await this.integrations.update(
          existing.id,
          { ...manifest, version: saved.version },
          manager,
        );
      } else {
        await this.integrations.insert(saved, manager);
      }
      await this.integrations.addVersion(
        Object.assign(new IntegrationVersion(), {
          integrationId: saved.id,
          version: saved.version,
          script: input.script,
          publishedBy: actor.kind === 'user' ? actor.userId : null,
          publishedAt: now,
        }),
        manager,
      );
      return saved;
    });
    return { integration, owner, admin: true };
  }

  /** The integration as the caller sees it (its access decided by the guard). */
  async view(access: ResolvedAccess<Integration>): Promise<IntegrationView> {
    const integration = access.entity!;
    return {
      integration,
      owner: await this.ownerOf(integration),
      admin: access.role === 'admin',
    };
  }

  async list(
    actor: UserActor | AdminActor,
    query: ListIntegrationsQueryDto,
  ): Promise<Page<IntegrationView>> {
    const page = await this.integrations.page(
      actor.kind === 'admin' ? { kind: 'admin' } : { kind: 'user', userId: actor.userId },
      query,
    );
    const owners = new Map<string, Organization>();
    const admins = new Set<string>();
    for (const organizationId of new Set(page.items.map((item) => item.organizationId))) {
      const organization = await this.organizations.findById(organizationId);
      if (organization) owners.set(organizationId, organization);
      if (actor.kind === 'admin') admins.add(organizationId);
      else if (await this.administers(actor.userId, organizationId)) admins.add(organizationId);
    }
    return {
      ...page,
      items: page.items.map((integration) => ({
        integration,
        owner: owners.get(integration.organizationId)!,
        admin: admins.has(integration.organizationId),
      })),
    };
  }

  /** Unpublishes the integration: false when there was none the caller sees. */
  async unpublish(actor: UserActor | AdminActor, name: string): Promise<boolean> {
    const integration = await this.administered(actor, name, 'unpublishes');
    if (!integration) return false;
    return this.integrations.delete(integration.id);
  }

  async setDevelopmentMode(
    actor: UserActor | AdminActor,
    name: string,
    input: IntegrationDevelopmentModeDto,
  ): Promise<void> {
    if (!/^https?:\/\/[^\s/?#]+([/?#]\S*)?$/i.test(input.tunnelUrl)) {
      throw invalidInput('tunnelUrl must be an http(s) URL');
    }
    const integration = await this.administered(actor, name, 'develops');
    if (!integration) throw notFound('Integration');
    await this.integrations.update(integration.id, {
      devTunnelUrl: input.tunnelUrl,
      devAll: input.all ?? false,
      updatedAt: this.clock.now(),
    });
  }

  async disableDevelopmentMode(actor: UserActor | AdminActor, name: string): Promise<void> {
    const integration = await this.administered(actor, name, 'develops');
    if (!integration) throw notFound('Integration');
    await this.integrations.update(integration.id, {
      devTunnelUrl: null,
      devAll: false,
      updatedAt: this.clock.now(),
    });
  }

  /**
   * The integration named `name` if the caller may change it (the instance administrator; the
   * admins of its organization while it is private), null when the caller does not see it,
   * else a 403.
   */
  private async administered(
    actor: UserActor | AdminActor,
    name: string,
    what: string,
  ): Promise<Integration | null> {
    if (actor.kind === 'admin') return this.integrations.findByName(name);
    const access = (await this.policy.resolve(
      actor.userId,
      'integration',
      name,
    )) as ResolvedAccess<Integration> | null;
    if (!access) return null;
    const integration = access.entity!;
    if (access.role !== 'admin') {
      throw forbidden(`Only the admins of the organization that owns ${name} may do this.`);
    }
    if (integration.visibility !== 'private') {
      throw onlyInstanceAdmin(`${what} a public or unlisted integration`);
    }
    return integration;
  }

  /** The organization named by a manifest's `organization` (id or hostname) the caller publishes to. */
  private async ownerFor(actor: UserActor | AdminActor, value: string): Promise<Organization> {
    const organization = await this.organizations.findByIdOrHostname(value);
    if (!organization) throw notFound('Organization');
    if (actor.kind === 'admin') return organization;
    const access = await this.policy.resolve(actor.userId, 'organization', organization.id);
    if (!access) throw notFound('Organization');
    if (access.role !== 'admin') {
      throw forbidden("Only the organization's admins publish its integrations.");
    }
    return organization;
  }

  private async ownerOf(integration: Integration): Promise<Organization> {
    const organization = await this.organizations.findById(integration.organizationId);
    if (!organization) throw notFound('Integration');
    return organization;
  }

  private async administers(userId: string, organizationId: string): Promise<boolean> {
    const access = await this.policy.resolve(userId, 'organization', organizationId);
    return access?.role === 'admin';
  }

  private async storeImage(bytes: Buffer): Promise<string> {
    const digest = sha256Hex(bytes);
    const key = imageBlobKey(digest);
    if (!(await this.blobs.exists(key))) await this.blobs.put(key, bytes);
    return digest;
  }
}

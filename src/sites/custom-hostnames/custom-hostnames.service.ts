import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AdminActor, UserActor } from '../../platform/auth/actor';
import { Clock } from '../../platform/clock/clock';
import { DomainError, forbidden, notFound } from '../../platform/errors/domain-error';
import { JobsService } from '../../platform/jobs/jobs.service';
import { PolicyService } from '../../platform/policy/policy.service';
import { Revalidation } from '../../platform/revalidation/revalidation.service';
import type { Site } from '../entities/site.entity';
import { SitesRepository } from '../sites.repository';
import { HostnameDns, statusAfterCheck } from './hostname-dns';

export type CustomHostnameCaller = UserActor | AdminActor;
export type HostnameSite = Site & { hostname: string };

/** The queue of the scheduled recheck of custom hostnames. */
export const RECHECK_HOSTNAMES_QUEUE = 'custom-hostnames-recheck';
/** Every ten minutes (off the round minutes). */
export const RECHECK_HOSTNAMES_CRON = '3-59/10 * * * *';
/** A hostname not live is checked again after ten minutes; a live one after a day. */
export const RECHECK_PENDING_MS = 10 * 60 * 1000;
export const RECHECK_LIVE_MS = 24 * 60 * 60 * 1000;
/** Hostnames one run checks at most (the least recently checked first). */
export const RECHECK_BATCH = 100;

const hostnameNotFound = () => notFound('Custom hostname');

/**
 * Custom hostnames (a site's `hostname`): their DNS status, checked when set (SiteWritesService),
 * on demand (dnsRevalidateCustomHostname) and every ten minutes for those due, and their
 * removal. GitBook keeps these operations for its staff; in Bindery the instance
 * administrator and the admins of the organization whose site the hostname serves call them.
 */
@Injectable()
export class CustomHostnamesService implements OnModuleInit {
  private readonly logger = new Logger(CustomHostnamesService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sites: SitesRepository,
    private readonly dns: HostnameDns,
    private readonly policy: PolicyService,
    private readonly revalidation: Revalidation,
    private readonly clock: Clock,
    private readonly jobs: JobsService,
  ) {}

  onModuleInit(): void {
    this.jobs.define(
      RECHECK_HOSTNAMES_QUEUE,
      async () => {
        const checked = await this.recheckDue();
        if (checked > 0) this.logger.log({ checked }, 'Rechecked custom hostnames');
      },
      { policy: 'singleton' },
    );
    this.jobs.schedule(RECHECK_HOSTNAMES_QUEUE, RECHECK_HOSTNAMES_CRON);
  }

  /** The site on `hostname`, if the caller administers it: else 404 (unseen) or 403. */
  async find(caller: CustomHostnameCaller, hostname: string): Promise<HostnameSite> {
    const site = await this.sites.findByHostname(hostname.toLowerCase());
    if (!site) throw hostnameNotFound();
    if (caller.kind === 'user') {
      const access = await this.policy.resolve(caller.userId, 'organization', site.organizationId);
      if (!access) throw hostnameNotFound();
      if (access.role !== 'admin') {
        throw forbidden("Only the admins of the site's organization manage its custom hostname.");
      }
    }
    return site as HostnameSite;
  }

  /** Checks the hostname's DNS again and records what it found; the site as it is then. */
  async revalidate(caller: CustomHostnameCaller, hostname: string): Promise<HostnameSite> {
    const site = await this.find(caller, hostname);
    await this.check(site);
    return site;
  }

  /**
   * Takes the hostname off its site: the published lookup no longer serves the site there, and
   * any site may take it. False when no site has it, or the caller does not see the one that does
   * (nothing changes); 403 when the caller sees it without administering it.
   */
  async remove(caller: CustomHostnameCaller, hostname: string): Promise<boolean> {
    let site: HostnameSite;
    try {
      site = await this.find(caller, hostname);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'not_found') return false;
      throw error;
    }
    return this.dataSource.transaction(async (tx) => {
      const removed = await this.sites.clearHostname(site.hostname, this.clock.now(), tx);
      if (!removed) return false;
      await this.revalidation.site(removed.id, tx);
      return true;
    });
  }

  /** Checks the hostnames due a recheck; how many it checked. */
  async recheckDue(): Promise<number> {
    const now = this.clock.now().getTime();
    const due = await this.sites.hostnamesDue(
      new Date(now - RECHECK_PENDING_MS),
      new Date(now - RECHECK_LIVE_MS),
      RECHECK_BATCH,
    );
    for (const site of due) await this.check(site as HostnameSite);
    return due.length;
  }

  /**
   * Checks `site`'s hostname and records the result (unless the hostname changed meanwhile); the
   * published lookup hears of a change of status. Updates `site` in place.
   */
  private async check(
    site: Pick<HostnameSite, 'id' | 'hostname' | 'hostnameStatus' | 'hostnameCheckedAt'>,
  ): Promise<void> {
    const checked = await this.dns.check(site.hostname, site.id);
    const status = statusAfterCheck(site.hostnameStatus, checked);
    const checkedAt = this.clock.now();
    await this.dataSource.transaction(async (tx) => {
      const recorded = await this.sites.setHostnameStatus(
        site.id,
        site.hostname,
        status,
        checkedAt,
        tx,
      );
      if (recorded && status !== site.hostnameStatus) await this.revalidation.site(site.id, tx);
    });
    site.hostnameStatus = status;
    site.hostnameCheckedAt = checkedAt;
  }
}

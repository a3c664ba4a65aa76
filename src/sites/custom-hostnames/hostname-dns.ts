import { Injectable, Logger } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { AppConfig } from '../../platform/config/app-config';
import type { CustomHostnameStatus } from '../entities/site.entity';

/** The TXT record's name for `hostname`: `_bindery.<hostname>`. */
export const verificationRecordName = (hostname: string): string => `_bindery.${hostname}`;
/** The TXT record's value that ties a hostname to site `siteId`. */
export const verificationValue = (siteId: string): string => `bindery-site=${siteId}`;

/** Time one DNS query may take, and how many times it is sent. */
const DNS_TIMEOUT_MS = 2000;
const DNS_TRIES = 2;
/** Answers meaning "no such record" (the name does not exist, or has none of that type). */
const ABSENT = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * The DNS check of a site's custom hostname: it is `live` when its CNAME record names
 * CUSTOM_HOSTNAME_CNAME_TARGET, or when `_bindery.<hostname>` has the TXT record
 * `bindery-site=<siteId>` (for an apex, or a hostname routed to Bindery another way). Asked of
 * the system's resolvers, or of DNS_SERVERS.
 */
@Injectable()
export class HostnameDns {
  private readonly logger = new Logger(HostnameDns.name);
  private readonly resolver: Resolver;
  readonly cnameTarget: string;

  constructor(config: AppConfig) {
    this.resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
    const servers = config.dnsServers;
    if (servers) this.resolver.setServers(servers);
    this.cnameTarget = config.customHostnameCnameTarget;
  }

  /**
   * What the DNS says of `hostname` for site `siteId`: `live`, `dns_wrong_cname` (a CNAME to
   * another host, and no TXT record), `dns_no_cname` (neither), or `internal_error` when the
   * servers failed to answer and nothing proved it.
   */
  async check(hostname: string, siteId: string): Promise<CustomHostnameStatus> {
    const [cname, txt] = await Promise.allSettled([
      this.resolver.resolveCname(hostname),
      this.resolver.resolveTxt(verificationRecordName(hostname)),
    ]);
    const names = cname.status === 'fulfilled' ? cname.value.map(normalizeName) : [];
    if (names.includes(this.cnameTarget)) return 'live';
    const expected = verificationValue(siteId);
    if (txt.status === 'fulfilled' && txt.value.some((chunks) => chunks.join('') === expected)) {
      return 'live';
    }
    const failures = [cname, txt]
      .filter((result) => result.status === 'rejected')
      .map((result) => (result as PromiseRejectedResult).reason as { code?: string })
      .filter((reason) => !ABSENT.has(reason?.code ?? ''));
    if (names.length > 0) return 'dns_wrong_cname';
    if (failures.length > 0) {
      this.logger.warn(
        `DNS check of ${hostname} failed: ${failures.map((f) => f?.code ?? String(f)).join(', ')}`,
      );
      return 'internal_error';
    }
    return 'dns_no_cname';
  }
}

/**
 * The status a hostname has after a check that found `checked`, given the one it had: a live
 * hostname stays live when the DNS servers failed to answer (a DNS outage takes no site down;
 * the next check decides).
 */
export function statusAfterCheck(
  previous: CustomHostnameStatus | null,
  checked: CustomHostnameStatus,
): CustomHostnameStatus {
  return previous === 'live' && checked === 'internal_error' ? 'live' : checked;
}

/** A DNS name as compared: lower-case, without the root's trailing dot. */
function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

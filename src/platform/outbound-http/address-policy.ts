import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { OutboundHttpError } from './outbound-http.error';

// ipaddr.js calls ::/96 (IPv4-compatible, deprecated) 'unicast', but it embeds an IPv4 address and
// the whole of ::/8 is reserved, so nothing public lives there.
const RESERVED_IPV6_PREFIX = ipaddr.parseCIDR('::/8');

/**
 * True only for globally routable unicast addresses. IPv4-mapped IPv6 addresses are judged by the
 * IPv4 address they carry; anything that does not parse is refused.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6' && parsed.match(RESERVED_IPV6_PREFIX)) return false;
  return parsed.range() === 'unicast';
}

export function addressNotAllowed(host: string, address: string): OutboundHttpError {
  const target = host === address ? address : `${host} (${address})`;
  return new OutboundHttpError(
    'address_not_allowed',
    `Refusing to connect to ${target}: only public internet addresses may be fetched.`,
  );
}

/**
 * A `net.connect` lookup that refuses the host when any address DNS returns is not public. Checking
 * at connection time, on the very addresses the socket will use, is what defeats DNS rebinding.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '');
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) return callback(addressNotAllowed(hostname, refused.address), '');
    if (addresses.length === 0) return callback(notFound(hostname), '');
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
};

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses no webhook is sent to unless the deployment allows private networks (the same rule as
 * back-channel logout, OIDC_ALLOW_PRIVATE_NETWORK): loopback, private ranges, link-local, shared,
 * documentation, benchmarking, multicast and reserved ones, in IPv4 and IPv6.
 */
const SPECIAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  SPECIAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is a special-use one (an IPv4-mapped IPv6 address judged as its IPv4). */
export function isSpecialAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return SPECIAL.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return SPECIAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A refusal to reach an address (the message names it, never a secret). */
export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup for node:http(s) that refuses special-use addresses: the connection goes to the
 * address checked, so a name that resolves elsewhere a moment later (DNS rebinding) changes nothing.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const refused = allowPrivate ? undefined : list.find((entry) => isSpecialAddress(entry.address));
      if (refused) return callback(new ForbiddenAddressError(`${hostname} resolves to ${refused.address}, a private or reserved address`), []);
      const all = (options as { all?: boolean }).all;
      if (all) return callback(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * Whether a webhook address may be registered: https (http only on this computer, and then only
 * where private networks are allowed), no credentials in it, and a host that is not a literal
 * special-use address unless private networks are allowed. Names are checked again at each delivery.
 */
export function webhookAddressProblem(value: string, allowPrivate: boolean): 'invalid' | 'private' | undefined {
  const url = URL.parse(value);
  if (!url || url.username || url.password || url.hash) return 'invalid';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'invalid';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && (host.startsWith('127.') || host === '::1'));
  if (url.protocol === 'http:' && !loopback) return 'invalid';
  if (allowPrivate) return undefined;
  if (loopback || (isIP(host) !== 0 && isSpecialAddress(host))) return 'private';
  return undefined;
}

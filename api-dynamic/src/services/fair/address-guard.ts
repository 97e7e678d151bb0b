/**
 * Which hosts and addresses the FAIR engine may fetch from (DECISIONS.md §6: server-side request forgery).
 * The identifier of an assessment is user input, and so is every URL harvested from the pages it leads to:
 * without this guard, `POST /assess {"identifier": "http://169.254.169.254/latest/meta-data/"}` would make
 * the server read its own cloud credentials, or probe the private network it sits in.
 *
 * The rule is an allow list, not a block list: an IPv4 address must be ordinary public unicast, an IPv6
 * address must be public unicast inside 2000::/3 (the only block IANA hands out), and IPv6 forms that carry an
 * IPv4 address (IPv4-mapped, IPv4-translated, NAT64, 6to4) are judged by the IPv4 address inside them.
 * Anything ipaddr.js does not call `unicast` (loopback, private, CGNAT, link-local, unique-local, multicast,
 * reserved, documentation, benchmarking …) is refused, so a range we forgot to list is refused by default.
 *
 * `allowPrivateAddresses` (tests, and a deployment that assesses objects on its own intranet) lets through
 * the non-public unicast ranges: loopback, RFC 1918, CGNAT, link-local, unique-local. It never lets through
 * the cloud metadata endpoints, the unspecified address (0.0.0.0 and :: reach the local host on Linux),
 * multicast or broadcast.
 *
 * Host names are judged after DNS resolution (safe-fetch.ts); the name check here only refuses early the
 * names that are private by definition, so no resolver is asked about them at all.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Whether the non-public unicast ranges (loopback, RFC 1918, CGNAT, link-local, unique-local) are allowed. */
export interface AddressPolicy {
  allowPrivateAddresses: boolean;
}

/** The outcome of a check: allowed, or refused with the name of the range that refused it (for messages). */
export type Verdict = { allowed: true } | { allowed: false; range: string };

const ALLOWED: Verdict = { allowed: true };
const refused = (range: string): Verdict => ({ allowed: false, range });

/**
 * Cloud metadata and platform endpoints, refused even with `allowPrivateAddresses`. Most sit in ranges that
 * are refused anyway (link-local, CGNAT, unique-local, reserved); they are listed so that a test setup or an
 * intranet deployment that allows private ranges still cannot reach them, and 168.63.129.16 (Azure's
 * platform endpoint) is a public address that only the list catches.
 */
const METADATA_CIDRS: ReadonlyArray<readonly [string, string]> = [
  ['169.254.169.0/24', 'AWS, GCP, Azure, OpenStack, DigitalOcean … instance metadata'],
  ['169.254.170.2/32', 'AWS ECS task metadata'],
  ['100.100.100.200/32', 'Alibaba Cloud metadata'],
  ['192.0.0.192/32', 'Oracle Cloud metadata'],
  ['168.63.129.16/32', 'Azure platform endpoint'],
  ['fd00:ec2::/32', 'AWS instance metadata (IPv6)'],
];
const METADATA_RANGES = METADATA_CIDRS.map(([cidr, name]) => ({ range: ipaddr.parseCIDR(cidr), name }));

/** Metadata host names (resolved by the cloud's own DNS, or by search-domain expansion of a single label). */
const METADATA_HOSTNAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** Ranges `allowPrivateAddresses` lets through (ipaddr.js range names). */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'linkLocal', 'uniqueLocal', 'deprecatedSiteLocal']);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * Judges one IP address (as returned by DNS or written in a URL, without brackets). A string that is not an
 * IP address is refused: callers resolve names first.
 */
export function checkAddress(address: string, policy: AddressPolicy): Verdict {
  if (isIP(address) === 0) return refused('not an IP address');
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return refused('not an IP address');
  }
  return ip.kind() === 'ipv4' ? checkV4(ip as ipaddr.IPv4, policy) : checkV6(ip as ipaddr.IPv6, policy);
}

function metadataRange(ip: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  for (const { range, name } of METADATA_RANGES) if (ip.kind() === range[0].kind() && ip.match(range)) return name;
  return null;
}

function checkV4(ip: ipaddr.IPv4, policy: AddressPolicy): Verdict {
  const metadata = metadataRange(ip);
  if (metadata) return refused(`metadata (${metadata})`);
  const range = ip.range();
  if (range === 'unicast') return ALLOWED;
  if (policy.allowPrivateAddresses && PRIVATE_RANGES.has(range)) return ALLOWED;
  return refused(range);
}

function checkV6(ip: ipaddr.IPv6, policy: AddressPolicy): Verdict {
  const metadata = metadataRange(ip);
  if (metadata) return refused(`metadata (${metadata})`);
  const range = ip.range();
  // Forms that carry an IPv4 address reach that address (the kernel for ::ffff:a.b.c.d, a translator for
  // the others): the IPv4 address decides.
  const embedded = embeddedV4(ip, range);
  if (embedded) {
    const inner = checkV4(embedded, policy);
    return inner.allowed ? inner : refused(`${range} form of ${embedded.toString()}: ${inner.range}`);
  }
  if (range === 'unicast') return ip.match(GLOBAL_UNICAST_V6) ? ALLOWED : refused('not global unicast (outside 2000::/3)');
  if (policy.allowPrivateAddresses && PRIVATE_RANGES.has(range)) return ALLOWED;
  return refused(range);
}

/** The IPv4 address inside an IPv4-mapped, IPv4-translated, NAT64 (/96) or 6to4 address; otherwise null. */
function embeddedV4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const p = ip.parts;
  const fromParts = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return fromParts(p[6]!, p[7]!);
    case 'rfc6052': // 64:ff9b::a.b.c.d (the /96 well-known prefix; the /48 local-use prefix is refused below)
      return ip.match(ipaddr.parseCIDR('64:ff9b::/96')) ? fromParts(p[6]!, p[7]!) : null;
    case '6to4': // 2002:AABB:CCDD::/48
      return fromParts(p[1]!, p[2]!);
    default:
      return null;
  }
}

/**
 * Judges a host name before it is resolved. Refuses the metadata names always, and, unless private
 * addresses are allowed, the names that can only be local: `localhost` and `*.localhost` (RFC 6761),
 * `*.local` (multicast DNS), `*.internal` (reserved for private use) and single-label names (which the
 * resolver completes with the host's search domains, i.e. inside the private network). Their addresses
 * would be refused after resolution anyway; refusing the name keeps them away from the resolver.
 */
export function checkHostname(hostname: string, policy: AddressPolicy): Verdict {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (METADATA_HOSTNAMES.has(name)) return refused('metadata host name');
  if (policy.allowPrivateAddresses) return ALLOWED;
  if (name === 'localhost' || name.endsWith('.localhost')) return refused('loopback host name');
  if (name.endsWith('.local')) return refused('multicast DNS host name');
  if (name.endsWith('.internal')) return refused('private-use host name (.internal)');
  if (!name.includes('.')) return refused('single-label host name');
  return ALLOWED;
}

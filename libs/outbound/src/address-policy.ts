import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where an address may be reached from a user-supplied URL:
 * - `public`: an ordinary unicast address, always allowed;
 * - `private`: loopback, RFC 1918, carrier-grade NAT, unique-local, documentation and benchmarking
 *   ranges... allowed only when private targets are (OUTBOUND_ALLOW_PRIVATE=true, local use);
 * - `forbidden`: never, even then: link-local (169.254.0.0/16, where cloud metadata answers, and
 *   fe80::/10), the cloud metadata and credential addresses outside it (see `METADATA`), "this network"
 *   (0.0.0.0/8, ::), multicast, broadcast and 240.0.0.0/4. None of these is a web server a user could mean.
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

const FORBIDDEN_V4 = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal']);
const FORBIDDEN_V6 = new Set(['unspecified', 'linkLocal', 'multicast']);
const RESERVED_V4 = ipaddr.parseCIDR('240.0.0.0/4');
/**
 * Cloud metadata and credential services at addresses that would otherwise pass as private: Alibaba
 * Cloud's instance metadata 100.100.100.200 (in carrier-grade NAT space), and on AWS, in unique-local
 * space, the instance metadata fd00:ec2::254 and the EKS Pod Identity agent fd00:ec2::23 (the IPv6
 * counterparts of 169.254.169.254 and 169.254.170.23). Compared in one spelling each: an IPv4 address
 * however it was written or embedded in IPv6, an IPv6 one normalised.
 */
const METADATA = new Set(
  ['100.100.100.200', 'fd00:ec2::254', 'fd00:ec2::23'].map((a) => ipaddr.parse(a).toNormalizedString()),
);

function classifyV4(address: ipaddr.IPv4): AddressClass {
  const range = address.range();
  if (FORBIDDEN_V4.has(range) || address.match(RESERVED_V4) || METADATA.has(address.toNormalizedString()))
    return 'forbidden';
  return range === 'unicast' ? 'public' : 'private';
}

/**
 * The IPv4 address an IPv6 one stands for, when it embeds one: NAT64 (64:ff9b::/96), IPv4-translated
 * (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d) and 6to4 (2002:AABB:CCDD::/48). A private IPv4
 * target must not come back in through one of these.
 */
function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = address.range();
  if (range === 'rfc6052' || range === 'rfc6145') return v4(p[6]!, p[7]!);
  if (range === '6to4') return v4(p[1]!, p[2]!);
  if (p.slice(0, 6).every((x) => x === 0) && (p[6]! !== 0 || p[7]! > 1)) return v4(p[6]!, p[7]!);
  return undefined;
}

function classifyV6(address: ipaddr.IPv6): AddressClass {
  if (METADATA.has(address.toNormalizedString())) return 'forbidden';
  const range = address.range();
  if (FORBIDDEN_V6.has(range)) return 'forbidden';
  const inner = embeddedV4(address);
  if (inner) return classifyV4(inner);
  return range === 'unicast' ? 'public' : 'private';
}

/**
 * The class of an IP address (IPv4-mapped IPv6 is read as the IPv4 it maps); undefined if it is not an
 * IP address in standard notation (URLs normalise the others: `0x7f000001`, `2130706433`, `127.1`).
 */
export function classifyAddress(address: string): AddressClass | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) === 0) return undefined;
  const parsed = ipaddr.process(bare);
  return parsed.kind() === 'ipv4' ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
}

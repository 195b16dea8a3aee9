import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress } from './address-policy.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name (the system resolver by default; tests give a table of their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface OutboundPolicy {
  /** OUTBOUND_ALLOW_PRIVATE: http, loopback and private targets allowed (local use). Never link-local or metadata. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

export type RefusalReason = 'invalid_url' | 'scheme' | 'address' | 'unresolvable';

/**
 * A user-supplied URL the platform will not call, and why. The message is safe to show to that user:
 * it names the host they wrote, never the address a name resolved to (that would map the internal
 * DNS to whoever registers names); `address` keeps it for the logs.
 */
export class OutboundRefusedError extends Error {
  readonly reason: RefusalReason;
  readonly code = 'EOUTBOUND_REFUSED';
  /** The address refused (for logs only): the one a host name resolved to. */
  readonly address: string | undefined;
  constructor(reason: RefusalReason, message: string, address?: string) {
    super(message);
    this.name = 'OutboundRefusedError';
    this.reason = reason;
    this.address = address;
  }
}

/**
 * Refuses an address the policy does not allow. An IP the user wrote is named with its kind; a name
 * is named alone, without what it resolved to or what kind of address that is.
 */
export function checkAddress(address: string, host: string, allowPrivate: boolean): void {
  const found = classifyAddress(address);
  if (found === 'public' || (found === 'private' && allowPrivate)) return;
  if (address !== host)
    throw new OutboundRefusedError(
      'address',
      `${host} resolves to an address the platform does not call (private, loopback, link-local or reserved)`,
      address,
    );
  const what = found === 'private' ? 'a private or loopback' : 'a link-local, metadata or reserved';
  throw new OutboundRefusedError('address', `${address} is ${what} address`, address);
}

/** The URL parsed, if its scheme is allowed: https, or http too when private targets are. */
export function parseOutboundUrl(value: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundRefusedError('invalid_url', 'must be an absolute URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol))
    throw new OutboundRefusedError(
      'scheme',
      allowPrivate ? 'must be an http(s) URL' : 'must be an https URL',
    );
  if (!url.hostname) throw new OutboundRefusedError('invalid_url', 'must name a host');
  return url;
}

/** The host of a URL as a resolver or `net.connect` takes it (IPv6 literals without their brackets). */
export const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Checks a URL before it is stored: its scheme, then every address its host resolves to (the URL
 * parser has already turned numeric forms such as `0x7f000001` or `2130706433` into dotted IPv4).
 * Connections are checked again when they are made (see `createGuardedAgents`), since the name may
 * resolve elsewhere by then.
 */
export async function checkOutboundUrl(value: string, policy: OutboundPolicy): Promise<URL> {
  const url = parseOutboundUrl(value, policy.allowPrivate);
  const host = bareHost(url);
  if (isIP(host) !== 0) {
    checkAddress(host, host, policy.allowPrivate);
    return url;
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolver)(host);
  } catch {
    throw new OutboundRefusedError('unresolvable', `${host} does not resolve`);
  }
  if (addresses.length === 0) throw new OutboundRefusedError('unresolvable', `${host} does not resolve`);
  for (const { address } of addresses) checkAddress(address, host, policy.allowPrivate);
  return url;
}

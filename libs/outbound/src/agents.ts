import http from 'node:http';
import https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { keepAliveAgent, keepAliveHttpsAgent } from '@pp/http';
import { checkAddress, systemResolver, type OutboundPolicy } from './url-guard.ts';

type Created = (err: Error | null, socket?: Socket) => void;
type Connect = (options: Record<string, unknown>, created?: Created) => Socket | undefined;

/** The address to connect to: the IP literal itself, or the first address of the name once all are checked. */
async function checkedAddress(host: string, policy: OutboundPolicy): Promise<string> {
  if (isIP(host) !== 0) {
    checkAddress(host, host, policy.allowPrivate);
    return host;
  }
  const addresses = await (policy.resolve ?? systemResolver)(host);
  if (addresses.length === 0)
    throw Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' });
  for (const { address } of addresses) checkAddress(address, host, policy.allowPrivate);
  return addresses[0]!.address;
}

/**
 * Makes every new connection of the agent go to an address checked against the policy: the name is
 * resolved here, each of its addresses checked, and the socket opened to the checked address itself
 * (TLS still verifies the certificate against the name, which the agent has already put in
 * `servername`). A name that answers differently the second time (DNS rebinding) gains nothing.
 */
function guard<A extends http.Agent>(agent: A, policy: OutboundPolicy): A {
  const target = agent as unknown as { createConnection: Connect };
  const original = target.createConnection.bind(agent);
  target.createConnection = (options, created) => {
    if (!created) throw new Error('a guarded agent opens connections for http requests only');
    const host = String(options.host ?? 'localhost').replace(/^\[|\]$/g, '');
    checkedAddress(host, policy).then(
      (address) => {
        let socket: Socket | undefined;
        try {
          socket = original({ ...options, host: address, lookup: undefined });
        } catch (err) {
          created(err as Error);
          return;
        }
        if (socket) created(null, socket);
      },
      (err: Error) => created(err),
    );
    return undefined;
  };
  return agent;
}

export interface GuardedAgents {
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
}

/**
 * http and https agents whose every new connection is checked against the policy (a kept-alive socket
 * was checked when it connected). `request-filtering-agent` works the same way, but its one switch lets
 * private addresses through together with link-local and metadata ones, which must stay refused here.
 */
export function createGuardedAgents(
  policy: OutboundPolicy,
  options: { keepAlive?: boolean; maxSockets?: number } = {},
): GuardedAgents {
  const maxSockets = options.maxSockets ?? Infinity;
  // Kept-alive connections are closed by this side when idle, before the endpoint closes them (a
  // request written on a connection the endpoint is closing fails).
  const [httpAgent, httpsAgent] =
    (options.keepAlive ?? true)
      ? [keepAliveAgent({ maxSockets }), keepAliveHttpsAgent({ maxSockets })]
      : [new http.Agent({ maxSockets }), new https.Agent({ maxSockets })];
  return { httpAgent: guard(httpAgent, policy), httpsAgent: guard(httpsAgent, policy) };
}

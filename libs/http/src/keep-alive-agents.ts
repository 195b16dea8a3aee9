import type http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import { nodeHttp } from './node-http.ts';

/**
 * How long a kept-alive connection may wait idle in a client's pool before the client closes it.
 *
 * A server closes a connection it has kept idle for its keep-alive timeout (Node's default is 5 s;
 * the platform's own servers keep 65 s, but a proxy or balancer in between may keep less). A request written on such a
 * connection just as the server closes it fails with ECONNRESET, and a proxy cannot send a POST
 * again: the client would get a 503 for a change that was never tried. Node's own agent lets a pooled
 * connection go only when the agent has a timeout of its own (and then also a second before the
 * server's `Keep-Alive: timeout=n` hint); by default it has none, and keeps the connection until the
 * server drops it. So the platform's clients close idle connections first: after this long, or a
 * second before the server's announced timeout when that comes sooner.
 */
export const IDLE_CONNECTION_MS = 4_000;

/** A second under the server's `Keep-Alive: timeout=n`, when it sent one (as Node's agent reckons it). */
function announcedLimitMs(socket: Duplex): number {
  const answer = (socket as Duplex & { _httpMessage?: { res?: http.IncomingMessage } })._httpMessage?.res;
  const hint = answer?.headers['keep-alive'];
  const seconds = typeof hint === 'string' ? /^timeout=(\d+)/.exec(hint)?.[1] : undefined;
  return seconds === undefined ? Infinity : Number(seconds) * 1000 - 1000;
}

type Timed = Duplex & { setTimeout(ms: number): unknown };

/**
 * Makes the agent close its idle connections before the server would (see IDLE_CONNECTION_MS). Only
 * a pooled connection's wait is timed: once a request takes the connection again, the request's own
 * timeout applies.
 */
export function closeIdleConnections<A extends http.Agent>(agent: A, idleMs = IDLE_CONNECTION_MS): A {
  // Node's answer says whether the connection may be kept (it refuses one the server keeps a second or less).
  const keep = agent.keepSocketAlive.bind(agent) as (socket: Duplex) => unknown;
  const reuse = agent.reuseSocket.bind(agent);
  agent.keepSocketAlive = ((socket: Duplex) => {
    if (keep(socket) === false) return false;
    (socket as Timed).setTimeout(Math.max(1, Math.min(idleMs, announcedLimitMs(socket))));
    return true;
  }) as unknown as A['keepSocketAlive'];
  agent.reuseSocket = (socket, request) => {
    (socket as Timed).setTimeout(0);
    reuse(socket, request);
  };
  return agent;
}

/** A kept-alive http agent that closes idle connections before the server does. */
export const keepAliveAgent = (options: http.AgentOptions = {}) =>
  closeIdleConnections(new nodeHttp.Agent({ ...options, keepAlive: true }));

/** The same for https. */
export const keepAliveHttpsAgent = (options: https.AgentOptions = {}) =>
  closeIdleConnections(new https.Agent({ ...options, keepAlive: true }));

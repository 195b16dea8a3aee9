import { hash } from 'node:crypto';
import type { Count, Counts } from './counts.ts';

/** What the counts need of a Redis client (node-redis's `sendCommand`). */
export interface RedisClient {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * Adds ARGV[1] hits to the bucket KEYS[1] (a new window of ARGV[2] ms when it has none) in one step;
 * answers { hits, ms left }. A window is never made by giving hits back, and a count never goes below 0.
 */
const ADD = `
local ttl = redis.call("PTTL", KEYS[1])
local hits = tonumber(ARGV[1])
if ttl <= 0 then
  if hits <= 0 then return { 0, tonumber(ARGV[2]) } end
  redis.call("SET", KEYS[1], hits, "PX", ARGV[2])
  return { hits, tonumber(ARGV[2]) }
end
local total = redis.call("INCRBY", KEYS[1], hits)
if total < 0 then
  redis.call("SET", KEYS[1], 0, "KEEPTTL")
  total = 0
end
return { total, ttl }`;

const PEEK = `
local ttl = redis.call("PTTL", KEYS[1])
if ttl <= 0 then return { 0, tonumber(ARGV[1]) } end
return { tonumber(redis.call("GET", KEYS[1]) or "0"), ttl }`;

const toCount = (reply: unknown): Count => {
  if (!Array.isArray(reply) || reply.length !== 2) throw new TypeError('unexpected reply from redis');
  return { totalHits: Number(reply[0]), resetTime: new Date(Date.now() + Number(reply[1])) };
};

/**
 * Counts shared by every gateway replica, in Redis under `prefix` + the bucket's key (which never
 * holds a secret: token ids, MACs, codes and addresses). Each step is one script run (EVALSHA, the
 * script sent again when Redis has lost it).
 */
export class RedisCounts implements Counts {
  private readonly redis: RedisClient;
  private readonly prefix: string;
  private readonly windowMs: string;

  constructor(redis: RedisClient, options: { prefix: string; windowMs: number }) {
    this.redis = redis;
    this.prefix = options.prefix;
    this.windowMs = String(options.windowMs);
  }

  async add(key: string, hits: number): Promise<Count> {
    return toCount(await this.run(ADD, this.prefix + key, String(hits), this.windowMs));
  }

  async peek(key: string): Promise<Count> {
    return toCount(await this.run(PEEK, this.prefix + key, this.windowMs));
  }

  private async run(script: string, key: string, ...args: string[]): Promise<unknown> {
    try {
      return await this.redis.sendCommand(['EVALSHA', shaOf(script), '1', key, ...args]);
    } catch (err) {
      if (!/^NOSCRIPT/.test((err as Error).message)) throw err;
      return this.redis.sendCommand(['EVAL', script, '1', key, ...args]);
    }
  }
}

const shas = new Map<string, string>();
const shaOf = (script: string) => {
  let sha = shas.get(script);
  if (!sha) shas.set(script, (sha = hash('sha1', script)));
  return sha;
};

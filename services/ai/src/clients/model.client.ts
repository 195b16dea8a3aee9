import type { AxiosInstance } from 'axios';
import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import type { z } from 'zod';
import { counter } from '@pp/http';
import { circuitBreaker } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import { createOutboundClient } from '@pp/outbound';

/** One question to the model: its instructions, the data (sent as JSON, never as instructions) and the answer's schema. */
export interface ModelTask<S extends z.ZodType> {
  name: string;
  instructions: string;
  input: unknown;
  schema: S;
}

export interface ModelClient {
  /** The model's name, as answers name their provider. */
  model: string;
  /** The model's answer, validated against the task's schema; throws on any failure (the caller falls back). */
  ask<S extends z.ZodType>(task: ModelTask<S>): Promise<z.infer<S>>;
}

export interface ModelClientOptions {
  baseURL: string;
  model: string;
  apiKey?: string;
  /** The whole call, its one retry included. */
  timeoutMs: number;
  maxConcurrency: number;
  allowPrivate: boolean;
  logger: Logger;
}

const failures = counter('ai_model_failures_total', 'Model calls answered by the built-in engine instead', [
  'reason',
]);

/**
 * fetch for the openai client over the outbound axios: checked addresses (no SSRF through a
 * misconfigured or hijacked name), no redirect followed, a bounded answer (a 10 MB answer is refused,
 * not read), a time limit on the whole call.
 */
function guardedFetch(http: AxiosInstance): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const response = await http.request<ArrayBuffer>({
      url,
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      data: init?.body ?? undefined,
      signal: init?.signal ?? undefined,
      responseType: 'arraybuffer',
    });
    const headers = new Headers();
    for (const [k, v] of Object.entries(response.headers)) if (typeof v === 'string') headers.set(k, v);
    const empty = [204, 304].includes(response.status);
    return new Response(empty ? null : response.data, { status: response.status, headers });
  };
}

/**
 * Any OpenAI-compatible chat-completions endpoint, with structured output: the answer's JSON schema
 * comes from the same zod schema it is validated with. One retry at most, inside one time limit; an
 * opossum breaker stops calling a model that keeps failing (30 s, then one trial call); at most
 * `maxConcurrency` calls at once (more are refused at once: their callers get the built-in answer).
 */
export function createModelClient(options: ModelClientOptions): ModelClient {
  const http = createOutboundClient({
    allowPrivate: options.allowPrivate,
    timeoutMs: options.timeoutMs,
    maxResponseBytes: 1024 * 1024,
    maxRequestBytes: 2 * 1024 * 1024,
  });
  const openai = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? 'none',
    maxRetries: 1,
    timeout: options.timeoutMs,
    fetch: guardedFetch(http),
  });

  const call = async (task: ModelTask<z.ZodType>) => {
    const completion = await openai.chat.completions.parse(
      {
        model: options.model,
        temperature: 0.2,
        messages: [
          { role: 'system', content: task.instructions },
          // The story text travels as data: a JSON document the instructions tell the model to read, never to obey.
          { role: 'user', content: JSON.stringify(task.input) },
        ],
        response_format: zodResponseFormat(task.schema, task.name.replace(/[^a-zA-Z0-9_-]/g, '_')),
      },
      { signal: AbortSignal.timeout(options.timeoutMs) },
    );
    const message = completion.choices[0]?.message;
    if (!message || message.refusal || message.parsed == null)
      throw new Error('the model gave no usable answer');
    // parse() validated the JSON against the schema; validate again so no transform or refinement is skipped.
    return task.schema.parse(message.parsed);
  };

  // The call carries its own time limit.
  const breaker = circuitBreaker(call, {
    name: 'model',
    capacity: options.maxConcurrency,
    volumeThreshold: 5,
    resetTimeoutMs: 30_000,
    rollingCountTimeoutMs: 60_000,
  });
  breaker.on('open', () => options.logger.warn({ target: 'model' }, 'circuit opened'));
  breaker.on('close', () => options.logger.info({ target: 'model' }, 'circuit closed'));

  return {
    model: options.model,
    async ask(task) {
      try {
        return (await breaker.fire(task)) as z.infer<typeof task.schema>;
      } catch (err) {
        const reason = breaker.opened
          ? 'circuit_open'
          : (err as Error)?.name === 'ZodError'
            ? 'invalid_answer'
            : 'error';
        failures.inc({ reason });
        const e = err as { name?: string; message?: string; status?: number };
        options.logger.warn(
          {
            target: 'model',
            reason,
            err: { name: e?.name, message: e?.message?.slice(0, 300), status: e?.status },
          },
          'model call failed',
        );
        throw err;
      }
    },
  };
}

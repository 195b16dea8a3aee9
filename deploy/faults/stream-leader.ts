/** Which NATS server of the cluster leads the event stream: the one whose loss tests the most. */
import type { NatsServerControl } from '../src/launcher/system.ts';
import type { Fault } from './faults.ts';

interface Jsz {
  account_details?: Array<{ stream_detail?: Array<{ name: string; cluster?: { leader?: string } }> }>;
}

/** The server leading `stream` as the first server that answers sees it; the first server when none says. */
export async function streamLeader(servers: NatsServerControl[], stream: string): Promise<NatsServerControl> {
  for (const server of servers.filter((s) => s.monitorUrl)) {
    const jsz = await fetch(`${server.monitorUrl}/jsz?streams=true`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.json() as Promise<Jsz>)
      .catch(() => undefined);
    const leader = jsz?.account_details?.flatMap((a) => a.stream_detail ?? []).find((s) => s.name === stream)
      ?.cluster?.leader;
    const found = servers.find((s) => s.name === leader);
    if (found) return found;
  }
  return servers[0]!;
}

/** SIGKILLs the server leading the event stream (the cluster elects another and goes on), and starts it again after `holdMs`. */
export function killStreamLeader(servers: NatsServerControl[], stream: string, holdMs: number): Fault {
  let victim: NatsServerControl | undefined;
  const fault: Fault = {
    name: 'NATS stream leader SIGKILLed',
    holdMs,
    outage: false,
    async inject() {
      victim = await streamLeader(servers, stream);
      fault.name = `NATS stream leader (${victim.name}) SIGKILLed`;
      await victim.kill();
    },
    restore: async () => victim?.start(),
  };
  return fault;
}

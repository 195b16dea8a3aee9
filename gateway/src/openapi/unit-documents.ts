import type { ServiceName } from '@pp/config';
import { listenToUnitDescriptions } from '@pp/http-client';
import type { Logger } from '@pp/logger';
import type { RouteEntry } from '../routes.ts';
import { mergeUnitDocuments, routeTableDocument, type OpenApiJson } from './document.ts';
import { shareGatewayAnswers } from './shared-answers.ts';

export interface UnitDocuments {
  /** The API's document as JSON text: the route table with every unit's description heard so far. */
  text(): string;
  /** Asks every unit whose description is missing (all of them with `all`); resolves when each answered or failed. */
  refresh(all?: boolean): Promise<void>;
  stop(): void;
}

/**
 * The API's document from the units' own descriptions of their paths (the gateway imports none of
 * them): a unit that is down keeps the description it gave last; one never heard from is described
 * from the route table alone.
 */
export function unitDocuments(options: {
  table: readonly RouteEntry[];
  urls: Record<ServiceName, string>;
  signingKey: string;
  logger: Logger;
  retryMs?: number;
  refreshMs?: number;
}): UnitDocuments {
  const base = routeTableDocument(options.table);
  const units = [...new Set(options.table.map((r) => r.unit))];
  const descriptions = listenToUnitDescriptions({
    units: Object.fromEntries(units.map((unit) => [unit, options.urls[unit]])),
    caller: 'gateway',
    signingKey: options.signingKey,
    logger: options.logger,
    retryMs: options.retryMs,
    refreshMs: options.refreshMs,
  });
  let built: { version: number; text: string } | undefined;
  return {
    text() {
      if (built?.version !== descriptions.version()) {
        const merged = mergeUnitDocuments(base, [...descriptions.current().values()] as OpenApiJson[]);
        const text = JSON.stringify(shareGatewayAnswers(merged, base));
        built = { version: descriptions.version(), text };
      }
      return built.text;
    },
    refresh: descriptions.refresh,
    stop: descriptions.stop,
  };
}

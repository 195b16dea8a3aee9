import type { EntityManager } from '@pp/db';
import type { Logger } from '@pp/logger';
import type { ModelClient } from '../../clients/model.client.ts';
import type { SessionsClient } from '@pp/http-client';
import type { StoriesClient } from '../../clients/stories.client.ts';

/** What a use case works with: the database, the units it reads from, the model (when configured). */
export interface AiContext {
  em: EntityManager;
  sessions: SessionsClient;
  stories: StoriesClient;
  /** null: the built-in engine answers everything. */
  model: ModelClient | null;
  /** Model calls one user may cause per hour. */
  budgetPerHour: number;
  logger: Logger;
}

export type ContextFactory = (em: EntityManager) => AiContext;

/** What every suggestion endpoint is asked: by whom, about which session, with which options. */
export interface SuggestionRequest {
  userId: string;
  code: string;
  story_id?: string;
  count?: number;
  prompt?: string;
  text?: string;
}

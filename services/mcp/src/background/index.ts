import type { UnitDescriptions } from '@pp/http-client';
import type { BackgroundTask } from '@pp/runtime';

/**
 * What the MCP unit does outside requests: it listens to what the other units say of their paths
 * (a tool's input is its endpoint's), asking again while one has not answered.
 */
export const tasks = (descriptions: UnitDescriptions): BackgroundTask[] => [
  { name: 'unit descriptions', stop: () => descriptions.stop() },
];

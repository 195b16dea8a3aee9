import type { Logger } from '@pp/logger';
import type { UnitsClient } from '../../clients/units.client.ts';
import type { ToolInputs } from './tool-inputs.ts';

/** What the MCP unit's use cases work with: the units to call, and the tools' inputs as the units describe them. */
export interface McpContext {
  units: UnitsClient;
  inputs: ToolInputs;
  logger: Logger;
}

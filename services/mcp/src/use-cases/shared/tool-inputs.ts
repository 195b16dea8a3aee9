import { fromJsonSchema, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { UnitDescriptions } from '@pp/http-client';
import {
  compositeToolInput,
  endpointToolInput,
  type JsonSchema,
  type PathsDescription,
} from '../../domain/tool-input.ts';
import { tools, type ToolSpec } from '../../domain/tools.ts';

export interface ToolInputs {
  /** Each tool's input schema, from what the units have said of their paths so far. */
  current(): ReadonlyMap<string, StandardSchemaWithJSON>;
}

function inputOf(tool: ToolSpec, descriptions: UnitDescriptions): JsonSchema {
  if (tool.kind !== 'endpoint') return compositeToolInput[tool.kind];
  return endpointToolInput(tool, descriptions.current().get(tool.unit) as PathsDescription | undefined);
}

/** The tools' inputs, compiled once for each set of descriptions (not once per request). */
export function toolInputs(descriptions: UnitDescriptions): ToolInputs {
  let compiled: { version: number; inputs: Map<string, StandardSchemaWithJSON> } | undefined;
  return {
    current() {
      if (compiled?.version !== descriptions.version()) {
        const inputs = new Map(
          tools.map((tool) => [tool.name, fromJsonSchema(inputOf(tool, descriptions) as never)]),
        );
        compiled = { version: descriptions.version(), inputs };
      }
      return compiled.inputs;
    },
  };
}

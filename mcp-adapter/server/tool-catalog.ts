/**
 * The tool table as MCP sees it: one `Tool` per definition (name, title, description, inputSchema,
 * annotations), computed once at start-up and served as the same object to every tools/list.
 *
 * TypeBox schemas are JSON Schema already, but they carry symbol keys (`[Kind]`, `[OptionalKind]`)
 * that are meaningless outside TypeBox; a JSON round trip drops them so the listing is exactly what
 * goes over the wire. `required` is always present (some clients index it without checking).
 */
import type { Tool } from "@modelcontextprotocol/server";
import type { ToolDefinition } from "../../tools/definition/tool-definition.ts";

export interface ToolCatalog {
  /** The tools/list result's `tools`, in table order. */
  readonly tools: readonly Tool[];
  /** Definition by MCP tool name, for tools/call. */
  readonly byName: ReadonlyMap<string, ToolDefinition>;
}

export function buildToolCatalog(table: readonly ToolDefinition[]): ToolCatalog {
  const byName = new Map<string, ToolDefinition>();
  const tools = table.map((definition): Tool => {
    byName.set(definition.name, definition);
    return {
      name: definition.name,
      title: definition.title,
      description: definition.description,
      inputSchema: plainInputSchema(definition),
      annotations: { title: definition.title, ...definition.annotations },
    };
  });
  return { tools: Object.freeze(tools), byName };
}

function plainInputSchema(definition: ToolDefinition): Tool["inputSchema"] {
  const schema = JSON.parse(JSON.stringify(definition.parameters)) as Record<string, unknown>;
  if (schema["type"] !== "object") {
    throw new Error(`The parameters of ${definition.name} must be a JSON Schema object (type "object").`);
  }
  schema["properties"] ??= {};
  schema["required"] ??= [];
  return schema as Tool["inputSchema"];
}

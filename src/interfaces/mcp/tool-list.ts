/**
 * The `tools/list` answer, which every agent session pays for before its first call. Tools are
 * registered with the SDK as usual (it validates and calls them); a recorder keeps each tool's
 * definition, and the listing is rendered from those definitions with zod's own JSON Schema
 * conversion, leaving out what tells a client nothing: `$schema` (the dialect is MCP's default)
 * `execution: {taskSupport: "forbidden"}` (the default when absent) and, in output schemas,
 * `additionalProperties: false` (a client reads the fields it knows).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { type ZodRawShape, z } from 'zod';

/** What tool modules register through: the SDK's own `registerTool`, recorded. */
export type ToolRegistrar = Pick<McpServer, 'registerTool'>;

interface Definition {
  title?: string;
  description?: string;
  inputSchema?: ZodRawShape;
  outputSchema?: ZodRawShape;
  annotations?: Tool['annotations'];
}

function jsonSchema(shape: ZodRawShape | undefined, io: 'input' | 'output'): Tool['inputSchema'] {
  if (!shape) return { type: 'object', properties: {} };
  const { $schema: _, ...schema } = z.toJSONSchema(z.object(shape), { io, target: 'draft-7' });
  return (io === 'output' ? open(schema) : schema) as Tool['inputSchema'];
}

/** The schema without `additionalProperties: false`, at every depth. */
function open(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(open);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k, v]) => !(k === 'additionalProperties' && v === false))
      .map(([k, v]) => [k, open(v)]),
  );
}

/**
 * A registrar over `server` that records every definition, and `install()`, which answers
 * `tools/list` from the recorded definitions (call it after the last registration).
 */
export function createToolList(server: McpServer): { registrar: ToolRegistrar; install(): void } {
  const defined: [string, Definition][] = [];
  const registerTool = ((name: string, config: Definition, cb: never) => {
    defined.push([name, config]);
    return server.registerTool(name, config as never, cb);
  }) as McpServer['registerTool'];
  return {
    registrar: { registerTool },
    install() {
      // Built once: the definitions do not change after start.
      const tools: Tool[] = defined.map(([name, d]) => ({
        name,
        ...(d.title ? { title: d.title } : {}),
        description: d.description,
        inputSchema: jsonSchema(d.inputSchema, 'input'),
        ...(d.outputSchema ? { outputSchema: jsonSchema(d.outputSchema, 'output') } : {}),
        annotations: d.annotations,
      }));
      server.server.removeRequestHandler('tools/list');
      server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    },
  };
}

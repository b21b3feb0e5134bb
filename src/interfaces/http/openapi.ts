/**
 * The OpenAPI 3.1 document, built from the routes' own zod schemas (`z.toJSONSchema`): what a
 * handler validates is what the document says, by construction.
 */
import { z } from 'zod';
import { VERSION } from '../../app/version.js';
import type { RouteSpec } from './route.js';

type Json = Record<string, unknown>;

/** JSON Schema of what a client sends (the input side of transforms and coercions). */
export function inputSchema(schema: z.ZodType): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

/** JSON Schema of what a server answers. */
function outputSchema(schema: z.ZodType): Json {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: 'output',
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

/** `/v1/threads/:id` → `/v1/threads/{id}`; `:path{.+}` → `{path}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

const ERROR_SCHEMA: Json = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          description:
            'INVALID_INPUT, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, STORAGE_UNAVAILABLE, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, RATE_LIMITED, INTERNAL, …',
        },
        message: { type: 'string' },
        details: { type: 'object' },
      },
    },
  },
};

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function parameters(spec: RouteSpec): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    if (!schema) continue;
    const js = inputSchema(schema);
    const props = (js.properties ?? {}) as Record<string, Json>;
    const required = new Set((js.required ?? []) as string[]);
    for (const [name, s] of Object.entries(props)) {
      const { description, ...rest } = s;
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  return out;
}

function operation(spec: RouteSpec): Json {
  const need = spec.need ?? (spec.method === 'get' ? 'read' : 'write');
  const op: Json = {
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    operationId: `${spec.method}${openApiPath(spec.path)
      .replace(/[{}]/g, '')
      .replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
    'x-tapedeck-scope': need,
    parameters: parameters(spec),
    responses: {
      [String(spec.status ?? 200)]: {
        description: spec.returns ?? 'Success',
        content: { 'application/json': { schema: spec.output ? outputSchema(spec.output) : {} } },
      },
      '400': errorRef('Invalid input (validation, malformed JSON)'),
      '401': errorRef('No key, or an unknown, revoked or expired key'),
      '403': errorRef('The key lacks the scope or the space'),
      '429': errorRef('Too many failed keys from this client; retry after the Retry-After seconds'),
      '503': errorRef('Storage unavailable; retry'),
    },
  };
  if (spec.body) {
    op.requestBody = {
      required: !spec.bodyOptional,
      content: { 'application/json': { schema: inputSchema(spec.body) } },
    };
    (op.responses as Json)['413'] = errorRef(`Body over ${spec.bodyLimit ?? 1048576} bytes`);
  }
  return op;
}

/** Routes that are not RouteSpecs: no schemas of ours to validate (liveness, MCP's own JSON-RPC). */
const STATIC_PATHS: Record<string, Json> = {
  '/livez': {
    get: {
      tags: ['system'],
      summary: 'Liveness (no key needed)',
      security: [],
      responses: { '200': { description: '{"status":"ok"}' } },
    },
  },
  '/openapi.json': {
    get: {
      tags: ['system'],
      summary: 'This document (no key needed)',
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1' } },
    },
  },
  '/mcp': {
    post: {
      tags: ['mcp'],
      summary:
        'MCP over Streamable HTTP (stateless, JSON answers); send Accept: application/json, text/event-stream',
      'x-tapedeck-scope': 'read (tools that write need write)',
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { description: 'A JSON-RPC message or batch' } } },
      },
      responses: {
        '200': { description: 'The JSON-RPC answer' },
        '202': { description: 'Notification accepted' },
      },
    },
  },
};

/** The document for a set of routes. */
export function buildOpenApi(routes: readonly RouteSpec[]): Json {
  const paths: Record<string, Json> = { ...STATIC_PATHS };
  for (const r of routes) {
    const path = openApiPath(r.path);
    paths[path] = { ...paths[path], [r.method]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tapedeck',
      version: VERSION,
      description:
        'Persistent memory for AI coding agents: search past agent sessions, memories, rules, skills, wiki and saved threads. MCP over Streamable HTTP is at /mcp.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { apiKeyHeader: [] }, {}],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer tapedeck_…' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Tapedeck-Api-Key' },
      },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}

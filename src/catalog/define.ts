/**
 * The operation catalogue (docs/ARCHITECTURE.md): each operation is declared once — name, zod
 * input and output, what it does to state, the scope it needs, where HTTP serves it, and a handler
 * over the services — and every interface is a projection of these declarations: HTTP routes and
 * their OpenAPI entries (interfaces/http/routes/catalog.ts), MCP tools with input and output
 * schemas (interfaces/mcp/catalog.ts), CLI commands whose `--json` is checked against the output
 * schema (interfaces/cli/catalog.ts). Inputs and outputs are snake_case, like every JSON document.
 */
import type { z } from 'zod';
import type { KeyScope } from '../core/api-keys.js';
import { invalidInput, type TapedeckError } from '../core/errors.js';
import type { KeyService } from '../services/keys.js';
import type { RuleService } from '../services/rules.js';

/** The services a handler may call (the engine, or one caller's scoped view of it, has them all). */
export interface OpServices {
  rules: RuleService;
  keys: KeyService;
  /**
   * Where operations run instead of their handler: client mode's engine runs each one against the
   * server's route for it (app/remote/remote-engine.ts). Absent: the handler runs here.
   */
  runOp?: OpRunner;
}

/** Runs an operation with an input already validated; answers what the output schema parses. */
export type OpRunner = (op: Operation, input: unknown, call: OpCall) => Promise<unknown>;

/** What the interface knows about the call that the input does not carry. */
export interface OpCall {
  /** The caller's working directory (CLI, MCP stdio); absent over HTTP. */
  cwd?: string;
}

/**
 * What a call does to state; each projection turns it into its own words (MCP annotations, the
 * CLI's `--yes` and MCP's `confirm: true` for destructive calls).
 */
export type OpEffect = 'read' | 'write' | 'idempotent-write' | 'destructive';

// biome-ignore lint/suspicious/noExplicitAny: an operation's input is any zod object
export type AnyShape = z.ZodObject<any>;

export interface Operation<I extends AnyShape = AnyShape, O extends AnyShape = AnyShape> {
  /** `<feature>.<verb>`: MCP tool `<feature>_<verb>`, OpenAPI tag `<feature>`. */
  name: string;
  /** One line: the OpenAPI summary. */
  summary: string;
  /** When to call it (the MCP tool description). */
  description: string;
  input: I;
  output: O;
  effect: OpEffect;
  /** Key scope needed; space rules are the service gate's (services/access/*). */
  need: KeyScope;
  /** Hono path syntax; `:name` segments are input fields. */
  http: { method: 'get' | 'post' | 'patch' | 'delete'; path: string; status?: 200 | 201 };
  /** Offered as a per-verb MCP tool (`mcpTools: full`); default true. */
  mcp?: boolean;
  handler(services: OpServices, input: z.output<I>, call: OpCall): Promise<z.input<O>>;
}

/**
 * Where an operation's input travels over HTTP (the server's routes and client mode's calls
 * agree by using this): the `:name` path segments, and the other fields in the query string (GET,
 * DELETE) or the JSON body (the other methods).
 */
export function httpLayout(op: Operation): { pathFields: string[]; rest: 'query' | 'body' } {
  return {
    pathFields: [...op.http.path.matchAll(/:(\w+)/g)].map((m) => m[1]),
    rest: op.http.method === 'get' || op.http.method === 'delete' ? 'query' : 'body',
  };
}

/** Declare an operation (typed: the handler's input and result follow the schemas). */
export const defineOp = <I extends AnyShape, O extends AnyShape>(op: Operation<I, O>): Operation<I, O> => op;

/** Path and message of each problem, first problem in the headline (the words every interface uses). */
export function invalidFrom(where: string, error: z.ZodError): TapedeckError {
  const issues = error.issues.map((i) => ({
    path: [where, ...i.path.map(String)].filter(Boolean).join('.'),
    message: i.message,
  }));
  const first = issues[0];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return invalidInput(`${first.path}: ${first.message}${more}`, { issues });
}

/** Validate a value against a schema, or throw INVALID_INPUT naming where each problem is. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalidFrom(where, r.error);
  return r.data;
}

/** Run an operation: validate the input, call the handler, hand back the result as the schema shapes it. */
export async function runOp<I extends AnyShape, O extends AnyShape>(
  op: Operation<I, O>,
  services: OpServices,
  input: unknown,
  call: OpCall = {},
): Promise<z.output<O>> {
  const valid = parseWith(op.input, input, '');
  const out = services.runOp
    ? await services.runOp(op as unknown as Operation, valid, call)
    : await op.handler(services, valid, call);
  return op.output.parse(out);
}

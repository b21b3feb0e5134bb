/**
 * Client mode: an Engine whose services live on a Tapedeck server (`TAPEDECK_API_URL`, `--api-url`).
 * Every service method call becomes `POST /v1/rpc`, run by the server on this caller's view (its
 * key's scope and spaces), so the CLI and the MCP stdio server keep their commands and output.
 * What only makes sense next to the store (export/import, raw store access) is refused clearly.
 */
import { httpLayout, type Operation } from '../../catalog/index.js';
import { ERROR_CODES, type ErrorCode, TapedeckError } from '../../core/errors.js';
import { ADAPTERS } from '../../sources/registry.js';
import type { TapedeckConfig } from '../config.js';
import type { Engine } from '../engine.js';
import { clientBearer } from '../local-token.js';
import { createSyncHttp, TransportError } from './sync-http.js';

/**
 * Services reached through the server's `/v1/rpc` by name (the server's RPC_SERVICES, minus
 * `engine`). The catalogue's features (rules, keys) are not among them: their operations run
 * against their own routes (`runOp` below), typed and checked by the catalogue's schemas.
 */
const REMOTE_SERVICES = [
  'transcripts',
  'memories',
  'skills',
  'wiki',
  'savedThreads',
  'workingMemory',
  'contextBundle',
  'fs',
  'spaces',
] as const;

/** Services whose methods return promises: called with fetch, not through the blocking client. */
const ASYNC_SERVICES = new Set<string>(['workingMemory', 'wiki']);

/**
 * The request for a catalogue operation: its own route, the `:name` segments from the input, the
 * other fields in the query or the JSON body (catalog/define.ts httpLayout, as the server reads them).
 */
function routeRequest(
  op: Operation,
  input: Record<string, unknown>,
): { method: string; path: string; body?: string } {
  const { pathFields, rest } = httpLayout(op);
  const path = op.http.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(String(input[name])));
  const fields = Object.entries(input).filter(([k, v]) => v !== undefined && !pathFields.includes(k));
  const method = op.http.method.toUpperCase();
  if (rest === 'body') return { method, path, body: JSON.stringify(Object.fromEntries(fields)) };
  const query = new URLSearchParams();
  for (const [k, v] of fields) for (const x of Array.isArray(v) ? v : [v]) query.append(k, String(x));
  const qs = query.toString();
  return { method, path: qs ? `${path}?${qs}` : path };
}

export function createRemoteEngine(config: TapedeckConfig): Engine {
  const base = config.apiUrl!.replace(/\/+$/, '');
  const http = createSyncHttp();
  const headers = (): Record<string, string> => {
    const bearer = clientBearer(base, config.apiKey, config.tapedeckHome);
    return bearer
      ? { 'content-type': 'application/json', authorization: `Bearer ${bearer}` }
      : { 'content-type': 'application/json' };
  };

  // Trailing `undefined`s are dropped; inner ones travel as null and mean "not given".
  const rpcBody = (service: string, method: string, args: unknown[]) => {
    let n = args.length;
    while (n > 0 && args[n - 1] === undefined) n--;
    return JSON.stringify({ service, method, args: args.slice(0, n) });
  };
  const unreachable = (why: string) =>
    new TapedeckError('STORAGE_UNAVAILABLE', `The Tapedeck server ${base} is not answering: ${why}`);

  const call = (service: string, method: string, args: unknown[]): unknown => {
    let reply: { status: number; body: string };
    try {
      reply = http.request('POST', `${base}/v1/rpc`, headers(), rpcBody(service, method, args));
    } catch (e) {
      throw unreachable(e instanceof TransportError ? `${e.message} (${e.code})` : (e as Error).message);
    }
    return answer(reply).result ?? undefined;
  };

  /** One request with plain fetch (no worker): the async services and the catalogue's operations. */
  const fetchReply = async (method: string, path: string, body?: string) => {
    try {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: headers(),
        body,
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, body: await res.text() };
    } catch (e) {
      // The same words as the blocking client's TransportError: the cause's message and code.
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const cause = err.cause ?? {};
      throw unreachable(`${cause.message || err.message} (${cause.code || err.name})`);
    }
  };

  /** Services whose methods return promises (ASYNC_SERVICES), through /v1/rpc. */
  const callAsync = async (service: string, method: string, args: unknown[]): Promise<unknown> =>
    answer(await fetchReply('POST', '/v1/rpc', rpcBody(service, method, args))).result ?? undefined;

  /** A catalogue operation on its own route; runOp (catalog/define.ts) checks the answer. */
  const runOp = async (op: Operation, input: unknown): Promise<unknown> => {
    const req = routeRequest(op, input as Record<string, unknown>);
    return answer(await fetchReply(req.method, req.path, req.body));
  };

  /** The parsed JSON of a success; a failure as the TapedeckError the server reported. */
  function answer(reply: { status: number; body: string }): { result?: unknown } {
    let parsed: {
      result?: unknown;
      error?: { code?: string; message?: string; details?: Record<string, unknown> };
    };
    try {
      parsed = JSON.parse(reply.body);
    } catch {
      throw new TapedeckError(
        'STORAGE_UNAVAILABLE',
        `The Tapedeck server ${base} answered ${reply.status} with something that is not JSON; is TAPEDECK_API_URL a Tapedeck server?`,
      );
    }
    if (reply.status >= 200 && reply.status < 300) return parsed;
    const err = parsed.error ?? {};
    const code = (ERROR_CODES as readonly string[]).includes(err.code ?? '')
      ? (err.code as ErrorCode)
      : 'STORAGE_UNAVAILABLE';
    throw new TapedeckError(
      code,
      err.message ?? `The Tapedeck server ${base} answered ${reply.status}`,
      err.details,
    );
  }

  const service = (name: string) =>
    new Proxy(
      {},
      {
        get: (_t, method) =>
          typeof method === 'symbol' || method === 'then'
            ? undefined
            : (...args: unknown[]) => (ASYNC_SERVICES.has(name) ? callAsync : call)(name, method, args),
      },
    );
  const local = (what: string) =>
    new Proxy(
      {},
      {
        get: (_t, p) => {
          if (typeof p === 'symbol' || p === 'then') return undefined;
          throw new TapedeckError(
            'UNSUPPORTED',
            `${what} runs next to the store, not in client mode (TAPEDECK_API_URL=${base}); run it on the server, or unset TAPEDECK_API_URL`,
          );
        },
      },
    );

  const engine: Record<string, unknown> = {
    config,
    adapters: ADAPTERS,
    locateEnv: { home: config.home, env: config.env },
    locate: (agents?: string[]) => {
      const out: Record<string, unknown> = {};
      for (const a of ADAPTERS)
        if (!agents?.length || agents.includes(a.id))
          out[a.id] = a.locate({ home: config.home, env: config.env }, () => {});
      return out;
    },
    stats: () => call('engine', 'stats', []),
    store: local('Direct store access'),
    stores: local('Direct store access'),
    indexer: local('The indexer'),
    runOp,
    // Reached only through their catalogue operations (runOp), never method by method.
    rules: local('Calling the rule service directly'),
    keys: local('Calling the key service directly'),
    portability: local('Export and import'),
    // Embedding runs next to the store: a search through /v1/rpc is weighed by the server's model.
    meaning: local('Embedding'),
    close: () => http.close(),
  };
  for (const name of REMOTE_SERVICES) engine[name] = service(name);
  return engine as unknown as Engine;
}

/**
 * One route for client mode (`TAPEDECK_API_URL`): the CLI and the MCP stdio server on another
 * machine call a service method by name, and the server runs it on the caller's view of the
 * engine — the same scope and space gates as every other route and the MCP server. Only the
 * services listed here are reachable, and only their own methods.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';

/** Services a client may call; `engine` is the engine's own `stats`. */
export const RPC_SERVICES = [
  'transcripts',
  'memories',
  'rules',
  'skills',
  'wiki',
  'savedThreads',
  'workingMemory',
  'contextBundle',
  'fs',
  'keys',
  'spaces',
  'engine',
] as const;

const ENGINE_METHODS: Record<string, (e: Engine) => unknown> = {
  stats: (e) => e.stats(),
};

const body = z.object({
  service: z.enum(RPC_SERVICES),
  method: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]{0,63}$/, 'a method name'),
  args: z.array(z.unknown()).max(8).default([]),
});

export function registerRpcRoutes(ctx: RoutesContext): void {
  addRoute(ctx.app, ctx.registry, {
    method: 'post',
    path: '/v1/rpc',
    tag: 'system',
    summary: 'Call a service method by name (client mode of the CLI and MCP stdio server)',
    description:
      'Runs `service.method(...args)` on the caller’s view of the engine: writes still need a write key, and a key sees only its spaces. Top-level null arguments mean "not given".',
    body,
    // Each service checks write/admin scope itself (as for the MCP server); reading needs read.
    need: 'read',
    wire: 'as-is',
    returns: '{result}',
    handler({ engine, body: b }) {
      const args = b.args.map((a) => (a === null ? undefined : a));
      if (b.service === 'engine') {
        const fn = ENGINE_METHODS[b.method];
        if (!fn) throw invalidInput(`engine.${b.method} is not callable remotely`);
        return { result: fn(engine) };
      }
      const service = engine[b.service] as unknown as Record<string, unknown> | undefined;
      const fn = service && Object.hasOwn(service, b.method) ? service[b.method] : undefined;
      if (typeof fn !== 'function') throw invalidInput(`${b.service}.${b.method} is not a method`);
      return Promise.resolve(fn.apply(service, args)).then((result) => ({ result: result ?? null }));
    },
  });
}

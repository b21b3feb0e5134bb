/**
 * Gating a service whose every method takes a `{space, cwd}` options object at a known position
 * (skills, wiki): a table says, per method, where that object is and what scope it needs. The
 * table is typed by the service's own keys, so a new method does not compile until it is listed.
 */
import type { KeyScope } from '../../core/api-keys.js';
import type { Gate } from './access.js';

export interface MethodRule {
  /** Index of the argument that carries `space` (and `cwd`). */
  at: number;
  need: KeyScope;
  /** The method reads or writes files on the server (local callers only). */
  serverFiles?: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: any service method shape is accepted
type Fn = (...args: any[]) => unknown;

/** A copy of `service` whose methods check the gate and pin their space first. */
export function scopeMethods<S extends { [K in keyof S]: Fn }>(
  service: S,
  table: { [K in keyof S]: MethodRule },
  gate: Gate,
  fallback: () => string,
  noun: string,
): S {
  const out = {} as S;
  for (const name of Object.keys(table) as (keyof S & string)[]) {
    const rule = table[name];
    const fn = service[name].bind(service) as Fn;
    out[name] = ((...args: unknown[]) => {
      gate.require(rule.need, `${noun} ${name}`);
      if (rule.serverFiles) gate.serverFiles(`${noun} ${name}`);
      if (gate.restricted) {
        const opts = (args[rule.at] ?? {}) as { space?: string };
        args[rule.at] = { ...opts, space: gate.space(opts.space, fallback), cwd: undefined };
      }
      return fn(...args);
    }) as S[keyof S & string];
  }
  return out;
}

/**
 * Helpers for declaring commands: the action wrapper (global flags merged, errors mapped once)
 * and the options every command shares. Command modules import these; main.ts wires them up.
 */
import { type Command, Option } from 'commander';
import { type GlobalFlags, loadBackendsFor } from './context.js';
import { fail } from './output.js';

// Commander hands each action its options as an untyped bag; each command module declares the
// shape it reads.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Flags = GlobalFlags & Record<string, any>;

export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Wrap an action: merge global flags, map errors once. Positional arguments come after flags. */
export function action(fn: (flags: Flags, ...positional: never[]) => Promise<unknown>) {
  return async (...args: unknown[]) => {
    const cmd = args.at(-1) as Command;
    const flags = { ...cmd.optsWithGlobals() } as Flags;
    const positional = args.slice(0, -2) as never[];
    try {
      await loadBackendsFor(flags);
      await fn(flags, ...positional);
    } catch (e) {
      fail(e, !!flags.json);
    }
  };
}

export const jsonOpt = () => new Option('--json', 'print one JSON document on stdout');
export const agentOpt = () =>
  new Option(
    '--agent <id>',
    'only this agent (repeatable): antigravity, claude-code, codex, gemini-cli',
  ).argParser(collect);

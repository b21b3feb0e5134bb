/**
 * Helpers for declaring commands: the action wrapper (global flags merged, errors mapped once)
 * and the options every command shares. Command modules import these; main.ts wires them up.
 */
import { type Command, Option } from 'commander';
import { AGENT_IDS } from '../../core/types.js';
import { type GlobalFlags, loadBackendsFor } from './context.js';
import { fail } from './output.js';

// Commander hands each action its options as an untyped bag; each command module declares the
// shape it reads.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Flags = GlobalFlags & Record<string, any>;

export const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * Commands that only read the store. On a machine where nothing is stored yet they answer from an
 * empty store and create nothing: no home, no database (`search --no-index` decides for itself).
 */
const READ_ONLY = new Set([
  'stats',
  'threads',
  'show',
  'doctor',
  'context',
  'export',
  'memory list',
  'memory show',
  'memory search',
  'rules list',
  'rules resolve',
  'skills list',
  'skills find',
  'skills suggest',
  'skills load',
  'skills show',
  'skills proposals',
  'skills export',
  'wiki show',
  'wiki list',
  'wiki search',
  'thread show',
  'thread list',
  'wm read',
  'fs ls',
  'fs cat',
  'fs stat',
  'fs find',
  'fs grep',
  'fs recall',
  'keys list',
]);

/** `memory list` for the `list` subcommand of `memory` (the program's own name left out). */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Wrap an action: merge global flags, map errors once. Positional arguments come after flags. */
export function action(fn: (flags: Flags, ...positional: never[]) => Promise<unknown>) {
  return async (...args: unknown[]) => {
    const cmd = args.at(-1) as Command;
    const flags = { ...cmd.optsWithGlobals() } as Flags;
    if (READ_ONLY.has(commandPath(cmd))) flags.readOnly = true;
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
  new Option('--agent <id>', 'only this agent (repeatable)')
    // the choices are listed in help and offered by shell completion; the parser that follows
    // keeps the option repeatable, and the services name the known agents on a wrong one
    .choices(AGENT_IDS)
    .argParser(collect);

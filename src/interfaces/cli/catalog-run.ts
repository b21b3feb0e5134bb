/**
 * The catalogue's CLI projection, run side (loaded when a catalogue command runs): options from
 * the operation's input schema, the flags read back into its input, the call validated and its
 * result held to the output schema — the same validation and the same document as HTTP and MCP.
 */
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { z } from 'zod';
import { CATALOG, type Operation, runOp } from '../../catalog/index.js';
import { invalidInput } from '../../core/errors.js';
import type { OpCommand } from './catalog.js';
import { openEngine } from './context.js';
import { commandPath, type Flags } from './define.js';
import { print, printJson, warn } from './output.js';

function opNamed(name: string): Operation {
  const op = CATALOG.find((o) => o.name === name);
  if (!op) throw new Error(`No catalogue operation "${name}"`);
  return op;
}

const unwrap = (s: z.ZodType): z.ZodType =>
  s instanceof z.ZodOptional || s instanceof z.ZodNullable ? unwrap(s.unwrap() as z.ZodType) : s;

/** `all_spaces` → `--all-spaces` (unless the command names it otherwise). */
const flagOf = (spec: OpCommand, field: string) => spec.flags?.[field] ?? `--${field.replaceAll('_', '-')}`;
/** The key commander hands a flag's value back under (`--all-spaces` → `allSpaces`). */
const attributeOf = (spec: OpCommand, field: string) => new Option(flagOf(spec, field)).attributeName();
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The input fields offered as plain flags (not the argument, not a switch). */
function flagFields(op: Operation, spec: OpCommand): [string, z.ZodType][] {
  return Object.entries(op.input.shape as Record<string, z.ZodType>).filter(
    ([f]) => f !== spec.argument?.field && !spec.switches?.[f],
  );
}

/** Add the operation's input fields to `cmd` as options. */
export function declareOptions(cmd: Command, spec: OpCommand): void {
  const op = opNamed(spec.op);
  for (const [field, schema] of flagFields(op, spec)) {
    const inner = unwrap(schema);
    const value = inner instanceof z.ZodBoolean ? '' : inner instanceof z.ZodNumber ? ' <n>' : ' <text>';
    const option = new Option(
      `${flagOf(spec, field)}${value}`,
      schema.description ?? inner.description ?? '',
    );
    // A list is a repeatable flag: `--space a --space b`.
    cmd.addOption(inner instanceof z.ZodArray ? option.argParser(collect) : option);
  }
  if (op.effect === 'destructive') cmd.option('--yes', 'confirm: this cannot be undone');
}

/** A flag's text as the schema wants it: digits become a number for a number field. */
function flagValue(schema: z.ZodType, v: unknown): unknown {
  if (typeof v !== 'string' || !(unwrap(schema) instanceof z.ZodNumber)) return v;
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}

/** Run the command's operation with the input its flags and argument give. */
export async function runOpCommand(cmd: Command, spec: OpCommand, flags: Flags, arg: unknown): Promise<void> {
  const op = opNamed(spec.op);
  if (op.effect === 'destructive' && !flags.yes)
    throw invalidInput(`${commandPath(cmd)} cannot be undone; confirm with --yes`);
  const input: Record<string, unknown> = {};
  for (const [field, schema] of flagFields(op, spec)) {
    const v = flags[attributeOf(spec, field)];
    if (v !== undefined) input[field] = flagValue(schema, v);
  }
  for (const [field, { on, off }] of Object.entries(spec.switches ?? {})) {
    const isOn = on && flags[new Option(on[0]).attributeName()];
    const isOff = off && flags[new Option(off[0]).attributeName()];
    if (isOn && isOff) throw invalidInput(`Give either ${on[0]} or ${off?.[0]}, not both`);
    if (isOn) input[field] = true;
    if (isOff) input[field] = false;
  }
  if (spec.argument) {
    const words = Array.isArray(arg) ? arg : [arg];
    input[spec.argument.field] =
      words.length === 1 && words[0] === '-' ? readFileSync(0, 'utf8') : words.join(' ');
  }
  const engine = openEngine(flags);
  try {
    const out = await runOp(op, engine, spec.prepare?.(input) ?? input, { cwd: process.cwd() });
    if (flags.json) return printJson(out);
    const shown = spec.render(out as never);
    if (typeof shown === 'string') return print(shown);
    print(shown.out);
    warn(shown.err);
  } finally {
    engine.close();
  }
}

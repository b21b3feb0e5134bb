/**
 * The catalogue's CLI projection, declaration side. A command names its catalogue operation and
 * says only what is the CLI's own: the word, the positional argument, switch pairs, relative
 * paths made absolute, the human rendering. Its options are the operation's input fields
 * (`all_spaces` → `--all-spaces`), declared from the zod schema when the command is about to run
 * (or its help is asked, or completion is generated): the schemas load zod, ~70 ms that no other
 * command should pay at start. The run side is catalog-run.ts.
 */
import type { Command } from 'commander';
import { action, jsonOpt } from './define.js';

export interface OpCommand {
  /** The catalogue operation's name (`rules.add`). */
  op: string;
  /** The subcommand word. */
  name: string;
  description: string;
  /** The positional argument (commander syntax) and the input field it fills; `-` reads stdin. */
  argument?: { spec: string; description: string; field: string };
  /** Boolean fields the CLI spells as switches: `--disabled` sets `enabled: false`. */
  switches?: Record<
    string,
    { on?: [flag: string, description: string]; off?: [flag: string, description: string] }
  >;
  /** A field's flag when it is not the field's own name (`spaces` → `--space`, repeatable). */
  flags?: Record<string, string>;
  /** What the CLI adjusts before the call (relative paths, `project:.`). */
  prepare?: (input: Record<string, unknown>) => Record<string, unknown>;
  /** The human answer (`--json` prints the result as the output schema shapes it); `err` goes to stderr. */
  render(out: never): string | { out: string; err: string };
}

const run = () => import('./catalog-run.js');

/** Commands whose options are still to be declared, and how (see declareCatalogOptions). */
const pending = new Map<Command, OpCommand>();

/** Declare `specs` as subcommands of `parent`. */
export function declareOpCommands(parent: Command, specs: OpCommand[]): void {
  for (const spec of specs) {
    const cmd = parent.command(spec.name).description(spec.description);
    if (spec.argument) cmd.argument(spec.argument.spec, spec.argument.description);
    for (const { on, off } of Object.values(spec.switches ?? {}))
      for (const s of [on, off]) if (s) cmd.option(s[0], s[1]);
    cmd.addOption(jsonOpt());
    cmd.action(action(async (flags, arg: never) => (await run()).runOpCommand(cmd, spec, flags, arg)));
    pending.set(cmd, spec);
  }
  // Commander runs this after choosing the subcommand and before it parses its options or help.
  parent.hook('preSubcommand', async (_parent, sub) => {
    const spec = pending.get(sub);
    if (spec) (await run()).declareOptions(sub, spec);
    pending.delete(sub);
  });
}

/** Declare every command's options now (completion reads the whole tree). */
export async function declareCatalogOptions(): Promise<void> {
  const { declareOptions } = await run();
  for (const [cmd, spec] of pending) declareOptions(cmd, spec);
  pending.clear();
}

/**
 * A run declares only the command it names (main.ts `buildProgram({ only })`): that command must
 * be declared exactly as in the whole tree — the same options, arguments, help and examples, down
 * to every subcommand — and nothing else.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../src/interfaces/cli/main.js';

/** Every command's help text and option flags, by command path. */
function describe(cmd: Command, path = cmd.name(), out = new Map<string, string>()): Map<string, string> {
  const flags = cmd.options.map((o) => `${o.flags}=${JSON.stringify(o.defaultValue)}`).join(' ');
  out.set(
    path,
    `${cmd.helpInformation()}\n${flags}\n${cmd.registeredArguments.map((a) => a.name()).join(' ')}`,
  );
  for (const sub of cmd.commands) describe(sub, `${path} ${sub.name()}`, out);
  return out;
}

it('each command declared alone is the command of the whole tree', () => {
  const full = buildProgram();
  assert.ok(full.commands.length > 20);
  for (const cmd of full.commands) {
    const alone = buildProgram({ only: cmd.name() });
    assert.deepEqual(
      alone.commands.map((c) => c.name()),
      [cmd.name()],
    );
    assert.deepEqual(describe(alone.commands[0]), describe(cmd), cmd.name());
    assert.deepEqual(
      alone.options.map((o) => o.flags),
      full.options.map((o) => o.flags),
    );
  }
});

it('a word that names no command declares none (main then builds the whole tree)', () => {
  assert.equal(buildProgram({ only: 'serach' }).commands.length, 0);
});

/**
 * `tapedeck rules …`: standing rules (always-on instructions) scoped to everyone, an agent, a
 * project or a space. Each command is a catalogue operation (catalog/rules.ts: its options, its
 * validation, its `--json` document); what is said here is the CLI's own: words, the argument,
 * switches, relative paths, the listing.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ResolvedRule, Rule, RuleResolution } from '../../../services/rules.js';
import { declareOpCommands } from '../catalog.js';
import { bold, dim } from '../style.js';

/** `project:.`, `project:~/src/x` and other relative project scopes become absolute here. */
function scopeArg(scope: unknown): unknown {
  if (typeof scope !== 'string' || !scope.startsWith('project:')) return scope;
  let dir = scope.slice('project:'.length);
  if (!dir || /^(?:\/|[A-Za-z]:[\\/])/.test(dir)) return scope;
  if ((dir === '~' || dir.startsWith('~/')) && process.env.HOME) dir = process.env.HOME + dir.slice(1);
  return `project:${resolve(dir)}`;
}
const withScope = (input: Record<string, unknown>) =>
  input.scope === undefined ? input : { ...input, scope: scopeArg(input.scope) };

function formatRule(r: Rule | ResolvedRule, i?: number): string {
  const head = `${i === undefined ? '' : `${i + 1}. `}${bold(r.title)}${r.enabled ? '' : ' (disabled)'}`;
  const why = 'reason' in r ? ` · applies: ${r.reason}` : '';
  const meta = dim(`   ${r.id.slice(0, 8)} · ${r.scope} · priority ${r.priority}${why}`);
  const body =
    r.body === r.title
      ? ''
      : `\n${r.body
          .split('\n')
          .map((l) => `   ${l}`)
          .join('\n')}`;
  const note = r.note ? `\n${dim(`   note: ${r.note}`)}` : '';
  return `${head}\n${meta}${body}${note}`;
}

const listing = (rules: (Rule | ResolvedRule)[]) => rules.map((x, i) => formatRule(x, i)).join('\n\n');

export function registerRulesCommands(program: Command): void {
  const rules = program
    .command('rules')
    .description('standing rules agents always follow, per scope (tapedeck rules <command> --help)');

  declareOpCommands(rules, [
    {
      op: 'rules.add',
      name: 'add',
      description: 'add a rule',
      argument: {
        spec: '<body...>',
        description: 'the instruction ("-" reads standard input)',
        field: 'body',
      },
      switches: { enabled: { off: ['--disabled', 'save it switched off'] } },
      prepare: withScope,
      render: (r: Rule) => `Added rule:\n${formatRule(r)}`,
    },
    {
      op: 'rules.list',
      name: 'list',
      description: 'list rules in the order they apply (rules of other spaces only with --all-spaces)',
      prepare: withScope,
      render: (r: { rules: Rule[] }) =>
        r.rules.length ? listing(r.rules) : 'No rules. Add one with `tapedeck rules add "…"`.',
    },
    {
      op: 'rules.update',
      name: 'update',
      description: 'change a rule',
      argument: { spec: '<id>', description: 'rule id (or an id prefix of 8+ characters)', field: 'id' },
      switches: { enabled: { on: ['--enable', 'switch it on'], off: ['--disable', 'switch it off'] } },
      prepare: withScope,
      render: (r: Rule) => `Updated rule:\n${formatRule(r)}`,
    },
    {
      op: 'rules.remove',
      name: 'remove',
      description: 'delete a rule for good (or switch it off: rules update --disable)',
      argument: { spec: '<id>', description: 'rule id', field: 'id' },
      render: (r: { id: string }) => `Removed rule ${r.id}.`,
    },
    {
      op: 'rules.resolve',
      name: 'resolve',
      description: 'the enabled rules that apply to an agent, project and space, in order',
      prepare: (input) =>
        typeof input.project === 'string' ? { ...input, project: resolve(input.project) } : input,
      render: (r: RuleResolution) =>
        `${dim(`agent ${r.agent ?? 'any'} · project ${r.project ?? 'none'} · space ${r.space}`)}\n${
          r.rules.length ? listing(r.rules) : 'No rules apply.'
        }`,
    },
  ]);
}

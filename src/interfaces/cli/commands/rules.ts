/**
 * `tapedeck rules …`: standing rules (always-on instructions) scoped to everyone, an agent, a
 * project or a space. Declarations only; the work is in rules-run.ts.
 */
import type { Command } from 'commander';
import { action, jsonOpt } from '../define.js';

const run = () => import('./rules-run.js');
const SCOPE = 'global (default), agent:<id>, project:<dir> or space:<name>';

export function registerRulesCommands(program: Command): void {
  const rules = program
    .command('rules')
    .description('standing rules agents always follow, per scope (tapedeck rules <command> --help)');

  rules
    .command('add')
    .description('add a rule')
    .argument('<body...>', 'the instruction ("-" reads standard input)')
    .option('--title <title>', 'a one-line title (default: the first line of the body)')
    .option('--scope <scope>', SCOPE)
    .option('--priority <n>', 'higher applies first, -1000 to 1000 (default 0)')
    .option('--disabled', 'save it switched off')
    .option('--note <text>', 'why the rule exists or where it came from')
    .addOption(jsonOpt())
    .action(action(async (flags, words: string[]) => (await run()).runRulesAdd(words, flags)));

  rules
    .command('list')
    .description('list rules in the order they apply (rules of other spaces only with --all-spaces)')
    .option('--scope <scope>', `only this scope: ${SCOPE}`)
    .option('--space <space>', 'the space whose space rules to show (default: the current space)')
    .option('--all-spaces', 'rules of every space')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runRulesList(flags)));

  rules
    .command('update')
    .description('change a rule')
    .argument('<id>', 'rule id (or an id prefix of 8+ characters)')
    .option('--body <text>', 'new body')
    .option('--title <title>', 'new title')
    .option('--scope <scope>', SCOPE)
    .option('--priority <n>', '-1000 to 1000')
    .option('--enable', 'switch it on')
    .option('--disable', 'switch it off')
    .option('--note <text>', 'new note ("" clears it)')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runRulesUpdate(id, flags)));

  rules
    .command('remove')
    .description('delete a rule for good')
    .argument('<id>', 'rule id')
    .option('--yes', 'confirm: this cannot be undone')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runRulesRemove(id, flags)));

  rules
    .command('resolve')
    .description('the enabled rules that apply to an agent, project and space, in order')
    .option('--agent <id>', 'antigravity, claude-code, codex or gemini-cli')
    .option('--project <dir>', 'the project directory')
    .option('--space <space>', 'the space (default: TAPEDECK_SPACE, the project mapping, or default)')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runRulesResolve(flags)));
}

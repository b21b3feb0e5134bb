/**
 * `tapedeck wm [read|refresh|edit]`: the daily working-memory briefing. Declared here; actions load
 * wm-run.ts when they run.
 */
import { type Command, Option } from 'commander';
import { action, collect, jsonOpt } from '../define.js';

const run = () => import('./wm-run.js');
const dateOpt = () => new Option('--date <day>', 'another day: YYYY-MM-DD (UTC), yesterday (default today)');
const spaceOpt = () =>
  new Option('--space <name>', 'space to work in (default: TAPEDECK_SPACE, the project mapping, or default)');

export function registerWorkingMemoryCommands(program: Command): void {
  const wm = program
    .command('wm')
    .description('working memory: the daily briefing (focus, decisions, open loops, sessions)');

  wm.command('read', { isDefault: true })
    .description("print today's briefing, regenerated first when the store changed or it is over an hour old")
    .addOption(dateOpt())
    .addOption(spaceOpt())
    .option('--cached', 'print the stored briefing as it is, even when stale (says so)')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runWmRead(flags)));

  wm.command('refresh')
    .description("regenerate the briefing now; a person's edits are kept unless --reset")
    .addOption(dateOpt())
    .addOption(spaceOpt())
    .addOption(
      new Option(
        '--reset <section>',
        "drop a person's edit of a section (focus, decisions, open-loops, sessions, or all); repeatable",
      ).argParser(collect),
    )
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runWmRefresh(flags)));

  wm.command('edit')
    .description(
      'replace a section with your own text (kept across refreshes): --section with --text or --file, or a whole briefing whose changed sections are taken',
    )
    .option('--section <name>', 'the section: focus, decisions, open-loops, sessions (or its heading)')
    .option('--text <markdown>', 'the new section body')
    .option('--file <file>', 'read the text from a file (- for standard input; the default when piped)')
    .addOption(dateOpt())
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runWmEdit(flags)));
}

/**
 * `tapedeck wiki write|show|list|rm|search`: free Markdown pages (architecture notes, runbooks) kept
 * per space, versioned and searchable. Declared here; actions load wiki-run.ts when they run.
 */
import { type Command, Option } from 'commander';
import { action, jsonOpt } from '../define.js';

const run = () => import('./wiki-run.js');
const spaceOpt = () =>
  new Option('--space <name>', 'space to work in (default: TAPEDECK_SPACE, the project mapping, or default)');

export function registerWikiCommands(program: Command): void {
  const wiki = program.command('wiki').description('free Markdown pages: write, show, list, search, rm');

  wiki
    .command('write')
    .description('create or replace a page (text from --content, --file, or standard input)')
    .argument('<path>', 'page path, e.g. architecture/payments.md (.md is added when missing)')
    .option('--content <markdown>', 'the page text')
    .option('--file <file>', 'read the page from a file (- for standard input)')
    .option('--if-version <n>', 'write only if the page is at this version (0: only if it does not exist)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runWrite(path, flags)));

  wiki
    .command('show')
    .description('print a page (or an earlier version; --history lists the versions)')
    .argument('<path>', 'page path')
    .option('--version <n>', 'show this version (write --version=N), also of a removed page')
    .option('--history', 'list the versions instead')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runShow(path, flags)));

  wiki
    .command('list')
    .description('pages, by path (under a folder when given)')
    .argument('[folder]', 'only pages under this folder, e.g. architecture')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, folder?: string) => (await run()).runList(folder, flags)));

  wiki
    .command('search')
    .description('full-text search over pages (title, path, text)')
    .argument('<query...>', 'words, "a phrase", prefix*, -exclude')
    .option('--folder <folder>', 'only pages under this folder')
    .option('--limit <n>', 'how many hits (default 10)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, words: string[]) => (await run()).runSearch(words.join(' '), flags)));

  wiki
    .command('rm')
    .description(
      'remove a page (kept as a tombstone: old versions stay readable; writing it again restores it)',
    )
    .argument('<path>', 'page path')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runRemove(path, flags)));
}

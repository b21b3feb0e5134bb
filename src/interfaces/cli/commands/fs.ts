/**
 * `tapedeck fs ls|cat|stat|find|grep|recall|write|rm`: one filesystem over Tapedeck's knowledge
 * (/memories, /threads, /skills, /rules, /wiki, /working-memory). Declared here; the actions load
 * fs-run.ts when they run.
 */
import { type Command, Option } from 'commander';
import { action, jsonOpt } from '../define.js';

const run = () => import('./fs-run.js');
const spaceOpt = () =>
  new Option('--space <name>', 'space to work in (default: TAPEDECK_SPACE, the project mapping, or default)');

export function registerFsCommands(program: Command): void {
  const fs = program
    .command('fs')
    .description('browse Tapedeck as files: /memories /threads /skills /rules /wiki /working-memory')
    .addHelpText(
      'after',
      "\nPaths are Tapedeck's own tree, never files on this machine. Writable: /memories (new.md creates a memory),\n/skills/<name>/SKILL.md, /wiki/**, /working-memory/today.md. See docs/fs.md.",
    );

  fs.command('ls')
    .description('list a folder (a page at a time)')
    .argument('[path]', 'folder or file (default /)', '/')
    .option('-l, --long', 'sizes, dates, links and details')
    .option('--max <n>', 'entries per page (default 100, at most 1000)')
    .option('--offset <n>', 'skip this many entries (paging)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runLs(path, flags)));

  fs.command('cat')
    .description('print a file, or a window of its lines')
    .argument('<path>', 'file, e.g. /memories/by-id/<id>.md or /threads/by-id/<id>.md')
    .option('--lines <A-B>', 'only these lines (1-based: 1-40, 41-, 7)')
    .option('-n, --number', 'number the lines')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runCat(path, flags)));

  fs.command('stat')
    .description('what a path is: kind, size, dates, link, writable')
    .argument('<path>', 'file or folder')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runStat(path, flags)));

  fs.command('find')
    .description('paths under a folder, by name and kind')
    .argument('[path]', 'where to look (default /)', '/')
    .option('--name <glob>', 'names matching a pattern: *, ?, [abc], {a,b}')
    .option('--type <kind>', 'file or dir')
    .option('--max <n>', 'at most this many (default 100, at most 10000)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runFind(path, flags)));

  fs.command('grep')
    .description('lines matching a regular expression (JavaScript syntax), with line numbers')
    .argument('<pattern>', 'the regular expression, e.g. "postgres|redis"')
    .argument('[path]', 'where to look (default /)', '/')
    .option('-i, --ignore-case', 'ignore case')
    .option('--max <n>', 'at most this many matching lines (default 100, at most 1000)')
    .option('--timeout <ms>', 'stop after this long, with partial results (default 3000, at most 30000)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(
      action(async (flags, pattern: string, path: string) => (await run()).runGrep(pattern, path, flags)),
    );

  fs.command('recall')
    .description("search under a path with each kind's own ranking (memories, threads, skills, wiki, rules)")
    .argument('<query>', 'what to look for (quote several words)')
    .argument('[path]', 'where to look (default /)', '/')
    .option('--limit <n>', 'hits per kind (default 10, at most 50)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(
      action(async (flags, query: string, path: string) => (await run()).runRecall(query, path, flags)),
    );

  fs.command('write')
    .description('write a file where the tree is writable (text from --file, --content or standard input)')
    .argument('<path>', 'e.g. /memories/by-id/new.md, /wiki/notes/deploy.md, /skills/<name>/SKILL.md')
    .option('--file <file>', 'read the text from a file (- for standard input)')
    .option('--content <text>', 'the text itself')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runWrite(path, flags)));

  fs.command('rm')
    .description('remove a file: forget a memory, remove a wiki page, archive a skill (all undoable)')
    .argument('<path>', 'the file')
    .option('-y, --yes', 'really remove it (required)')
    .addOption(spaceOpt())
    .addOption(jsonOpt())
    .action(action(async (flags, path: string) => (await run()).runRm(path, flags)));
}

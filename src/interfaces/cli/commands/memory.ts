/**
 * `tapedeck memory …`: durable memories (add, show, update, list, search, supersede, forget,
 * restore, purge). Declarations only; the work is in memory-run.ts, loaded when a command runs.
 */
import { type Command, Option } from 'commander';
import { action, collect, jsonOpt } from '../define.js';

const run = () => import('./memory-run.js');

/** Options shared by add and supersede (what a memory is made of). */
function contentOptions(cmd: Command): Command {
  return cmd
    .option('--title <title>', 'a one-line title (default: the first line of the content)')
    .option(
      '--type <type>',
      'fact, preference, decision, plan, procedure, learning, context or event (default fact)',
    )
    .addOption(new Option('--label <label>', 'a label (repeatable, or comma-separated)').argParser(collect))
    .option('--importance <x>', 'how much it matters, 0 to 1 (default 0.5)')
    .option('--confidence <x>', 'how sure it is, 0 to 1 (default 1)')
    .option('--project <dir>', 'the project directory it is about')
    .option('--thread <id>', 'provenance: the thread it came from (id or tapedeck://thread/<id>#<step>)')
    .option('--steps <A-B>', 'provenance: the step range in that thread')
    .option('--source <file-or-url>', 'provenance: a file or URL it came from')
    .option('--event-start <date>', 'when the event it records began (YYYY-MM-DD or ISO time)')
    .option('--event-end <date>', 'when it ended');
}

/** Filters shared by list and search. */
function filterOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('--label <label>', 'only memories with this label (repeatable: all of them)').argParser(
        collect,
      ),
    )
    .addOption(
      new Option('--type <type>', 'only this unit type (repeatable: any of them)').argParser(collect),
    )
    .option('--project <dir>', 'only memories of this project directory or below it')
    .option(
      '--space <space>',
      'the space to look in (default: TAPEDECK_SPACE, the project mapping, or default)',
    )
    .option('--all-spaces', 'look in every space')
    .option('--as-of <date>', 'what was valid then, superseded memories included')
    .option('--since <date>', 'happened since (event date, else when recorded)')
    .option('--until <date>', 'happened until (inclusive)');
}

export function registerMemoriesCommands(program: Command): void {
  const memory = program
    .command('memory')
    .description(
      'durable memories: facts, decisions, preferences… with provenance (tapedeck memory <command> --help)',
    );

  contentOptions(
    memory
      .command('add')
      .description('save a memory; the same thing said again returns the existing one (labels merged)')
      .argument('<content...>', 'what to remember ("-" reads standard input)'),
  )
    .option(
      '--space <space>',
      'the space to save in (default: TAPEDECK_SPACE, the project mapping, or default)',
    )
    .addOption(jsonOpt())
    .action(action(async (flags, words: string[]) => (await run()).runMemoryAdd(words, flags)));

  memory
    .command('show')
    .description('show one memory in full, with its provenance')
    .argument('<id>', 'memory id, tapedeck://memory/<id> link, or an id prefix of 8+ characters')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runMemoryShow(id, flags)));

  memory
    .command('update')
    .description('correct a memory in place (to record a change of fact, use supersede)')
    .argument('<id>', 'memory id or link')
    .option('--content <text>', 'new content')
    .option('--title <title>', 'new title')
    .option('--type <type>', 'new unit type')
    .addOption(new Option('--label <label>', 'replace the labels (repeatable)').argParser(collect))
    .addOption(new Option('--add-label <label>', 'add a label (repeatable)').argParser(collect))
    .addOption(new Option('--remove-label <label>', 'remove a label (repeatable)').argParser(collect))
    .option('--importance <x>', '0 to 1')
    .option('--confidence <x>', '0 to 1')
    .option('--project <dir>', 'the project directory ("" clears it)')
    .option('--thread <id>', 'provenance thread')
    .option('--steps <A-B>', 'provenance step range')
    .option('--source <file-or-url>', 'provenance file or URL')
    .option('--event-start <date>', 'event start ("" clears it)')
    .option('--event-end <date>', 'event end ("" clears it)')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runMemoryUpdate(id, flags)));

  filterOptions(memory.command('list').description('list memories, most recently updated first'))
    .option('--status <status>', 'active (default), superseded, forgotten or all')
    .option('--limit <n>', 'how many (default 20)')
    .option('--offset <n>', 'skip this many')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runMemoryList(flags)));

  filterOptions(
    memory
      .command('search')
      .description('search memories: text relevance, then importance and recency')
      .argument('<query...>', 'words or a question ("quoted phrase", prefix*, -exclude)'),
  )
    .option('--limit <n>', 'number of hits (default 10, at most 100)')
    .addOption(jsonOpt())
    .action(action(async (flags, words: string[]) => (await run()).runMemorySearch(words.join(' '), flags)));

  contentOptions(
    memory
      .command('supersede')
      .description('replace a memory with a new one; the old stays readable with --as-of')
      .argument('<id>', 'the memory being replaced')
      .argument('<content...>', 'the new content ("-" reads standard input)'),
  )
    .addOption(jsonOpt())
    .action(
      action(async (flags, id: string, words: string[]) =>
        (await run()).runMemorySupersede(id, words, flags),
      ),
    );

  memory
    .command('forget')
    .description('hide a memory everywhere (a tombstone: undo with restore)')
    .argument('<id>', 'memory id or link')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runMemoryLifecycle('forget', id, flags)));

  memory
    .command('restore')
    .description('bring back a forgotten memory')
    .argument('<id>', 'memory id or link')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runMemoryLifecycle('restore', id, flags)));

  memory
    .command('purge')
    .description('delete a forgotten memory for good (--force: even one not forgotten)')
    .argument('<id>', 'memory id or link')
    .option('--yes', 'confirm: this cannot be undone')
    .option('--force', 'purge even if it was not forgotten first')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runMemoryPurge(id, flags)));
}

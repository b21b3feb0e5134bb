/**
 * `tapedeck` command line. Commands are declared here as data; each action loads its module lazily
 * so `tapedeck --help` and light commands start fast.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import { VERSION } from '../../app/version.js';
import { registerIntegrationCommands } from './commands/integrations.js';
import { registerUiCommand } from './commands/ui.js';
import { action, agentOpt, collect, jsonOpt } from './define.js';
import { addHelpExamples } from './help-examples.js';
import { registerKnowledgeCommands } from './knowledge.js';
import { fail, failUsage } from './output.js';

export interface ProgramOptions {
  /** `--json` is on the line: usage errors become one JSON document on stdout, not text on stderr. */
  json?: boolean;
  /**
   * Declare only this top-level command (and the root options): what a run of that command needs.
   * Declaring all ~140 commands and subcommands cost ~5% of a search's CPU. Unset: the whole tree.
   */
  only?: string;
}

/** Stands in for a command that is not declared: every call on it, chained or not, does nothing. */
const IGNORED: Command = new Proxy(() => {}, { get: () => () => IGNORED }) as unknown as Command;

/** `program` where `.command(spec)` declares only the command `name`, the rest are ignored. */
function declaringOnly(program: Command, name: string): Command {
  return new Proxy(program, {
    get: (target, key) =>
      key === 'command'
        ? (spec: string, ...rest: never[]) =>
            spec.split(' ')[0] === name ? target.command(spec, ...rest) : IGNORED
        : Reflect.get(target, key),
  });
}

/** The whole command tree, as data (also read by `tapedeck completion` and the help examples). */
export function buildProgram({ json = false, only }: ProgramOptions = {}): Command {
  const root = new Command('tapedeck')
    // Set before any subcommand exists: subcommands share this output configuration.
    .configureOutput(json ? { writeErr: () => {} } : {})
    .description(
      'Persistent memory for AI coding agents: search what Antigravity, Claude Code, Codex and Gemini CLI did.',
    )
    .option('--home <dir>', 'Tapedeck data directory (default $TAPEDECK_HOME or ~/.tapedeck)')
    .option(
      '--db <file|url>',
      'SQLite file, or a postgres:// URL (default $TAPEDECK_DATABASE_URL, $TAPEDECK_DB, <home>/tapedeck.db)',
    )
    .option(
      '--api-url <url>',
      'client mode: send every call to this Tapedeck server (default $TAPEDECK_API_URL)',
    )
    .option('--api-key <key>', 'API key for --api-url (default $TAPEDECK_API_KEY; prefer the variable)')
    .option('--local', 'use the local store even when a server is configured (TAPEDECK_API_URL)')
    .showHelpAfterError('(run `tapedeck <command> --help` for usage)')
    .addHelpText('after', '\n`tapedeck --version` prints the version.')
    .exitOverride();
  const program = only ? declaringOnly(root, only) : root;

  program
    .command('quickstart')
    .description('index the transcripts on this machine (or the bundled samples) and show a search')
    .option('--query <q>', 'the search to show')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/quickstart.js')).runQuickstart(flags)));

  program
    .command('index')
    .description('index new and changed transcripts (incremental; --full re-reads everything)')
    .addOption(agentOpt())
    .option('--full', 're-read every file from the start')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/index.js')).runIndex(flags)));

  program
    .command('search')
    .description('search past sessions with a question or keywords ("quoted phrase", prefix*, -exclude)')
    .argument('<query...>', 'what to look for')
    .addOption(agentOpt())
    .option('--project <path>', 'only sessions in this directory or below it')
    .option('--since <date>', 'from this date (YYYY-MM-DD, ISO time, 7d, 2w, today)')
    .option('--until <date>', 'up to this date (inclusive)')
    .addOption(
      new Option('--role <role>', 'only user, assistant, tool or system steps (repeatable)').argParser(
        collect,
      ),
    )
    .option('--thread <id>', 'only this thread')
    .option('--limit <n>', 'number of hits (default 10, at most 100)')
    .addOption(
      new Option(
        '--by <unit>',
        'step (default) or thread: the best sessions, each with its best steps',
      ).choices(['step', 'thread']),
    )
    .option(
      '--explain',
      "show each hit's score components (lexical, identifier, neighbours, session, role, project, reason, date, recency, copy, meaning)",
    )
    .option('--now <date>', 'the date the question is asked on ("last week", "yesterday"; default: now)')
    .option('--no-index', 'do not refresh the index before searching')
    .option('--no-meaning', 'rank by words alone, even where `tapedeck embed` gave steps a meaning vector')
    .addOption(jsonOpt())
    // `-redis` excludes a word: let it (and any unknown short option) into the query unquoted.
    .allowUnknownOption()
    .action(
      action(async (flags, words: string[]) => {
        const search = await import('./commands/search.js');
        await search.runSearch(search.queryOf(words, process.argv.includes('--')), flags);
      }),
    );

  program
    .command('embed')
    .description(
      'give past prompts and replies a meaning vector with a local model (no network), so search also finds answers worded differently; resumable',
    )
    .option('--limit <n>', 'embed at most this many steps (default: every one without a vector)')
    .option('--status', 'only say how many steps have a vector')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/embed.js')).runEmbed(flags)));

  program
    .command('show')
    .description('show steps of a thread: a window around --step, or page through it with --from')
    .argument('<thread>', 'thread id, e.g. claude-code:<session id>')
    .option('--step <n>', 'the step to centre on')
    .option('--window <k>', 'steps on each side of --step (default 3)')
    .option('--from <n>', 'first step when paging (default 0)')
    .option('--limit <n>', 'steps per page (default 50)')
    .option('--max-chars <n>', 'cap each step text (default 4000)')
    .addOption(jsonOpt())
    .action(
      action(async (flags, thread: string) => (await import('./commands/show.js')).runShow(thread, flags)),
    );

  program
    .command('threads')
    .description('list indexed conversations, most recent first')
    .addOption(agentOpt())
    .option('--project <path>', 'only sessions in this directory or below it')
    .option('--since <date>', 'active since')
    .option('--until <date>', 'started before')
    .option('--limit <n>', 'how many (default 20)')
    .option('--offset <n>', 'skip this many')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/threads.js')).runThreads(flags)));

  program
    .command('forget')
    .description("delete a thread's indexed steps and archived transcript (asks first; --yes to confirm)")
    .argument('<thread>', 'thread id, e.g. claude-code:<session id>')
    .option('--yes', 'confirm: this cannot be undone')
    .addOption(jsonOpt())
    .action(
      action(async (flags, thread: string) =>
        (await import('./commands/history.js')).runForget(thread, flags),
      ),
    );

  program
    .command('restore')
    .description(
      "write a thread's transcript back from the archive, byte-identical (where the agent finds it)",
    )
    .argument('<thread>', 'thread id, e.g. claude-code:<session id>')
    .option('--to <path>', 'a file or folder to write it to instead of its original path')
    .option('--force', 'overwrite a different file already there')
    .option('--generation <n>', 'an older archived generation (a file rewritten from its start)')
    .addOption(jsonOpt())
    .action(
      action(async (flags, thread: string) =>
        (await import('./commands/history.js')).runRestore(thread, flags),
      ),
    );

  program
    .command('reanchor')
    .description(
      "what a context compaction dropped: a session's latest ask, plan, files, last commands, errors",
    )
    .argument('[thread]', 'thread id (default: the latest session of this directory)')
    .option('--budget <n>', 'token budget (default 600)')
    .option('--project <path>', 'without a thread: the latest session of this directory (default: cwd)')
    .option('--before <step>', 'read the steps before this one (default: before the last compaction)')
    .option('--no-index', 'do not refresh the index first')
    .addOption(jsonOpt())
    .action(
      action(async (flags, thread?: string) =>
        (await import('./commands/reanchor.js')).runReanchor(thread, flags),
      ),
    );

  program
    .command('eval')
    .description('score search on a question file: hit@1/5/10, evidence recall, session hit, MRR, latency')
    .argument('<questions.jsonl>', 'one JSON question a line (docs/eval.md); - reads standard input')
    .option('--compare', 'also run plain BM25 (words OR-ed) and every-word-AND over the same steps')
    .addOption(
      new Option(
        '--limit-kinds <kind>',
        'only questions of this kind (repeatable, or a comma list)',
      ).argParser(collect),
    )
    .option('--details', 'with --json: the rank of each question per system')
    .option('--no-index', 'do not refresh the index before scoring')
    .option('--no-expand', "search without the question's related words (measures the query expansion)")
    .option(
      '--no-meaning',
      'rank by words alone where steps have meaning vectors (measures `tapedeck embed`)',
    )
    .addOption(jsonOpt())
    .action(action(async (flags, file: string) => (await import('./commands/eval.js')).runEval(file, flags)));

  program
    .command('migrate')
    .description(
      'copy this store (transcripts and knowledge) into a PostgreSQL server or another file; safe to re-run',
    )
    .requiredOption(
      '--to <url|file>',
      'postgres://user:password@host:5432/db[?schema=name], or a SQLite file',
    )
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/migrate.js')).runMigrate(flags)));

  program
    .command('stats')
    .description('counts per agent and the size of the store')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/stats.js')).runStats(flags)));

  program
    .command('redact')
    .description(
      'mask stored values again with today’s redaction rules (a dry run that counts, unless --apply)',
    )
    .option('--apply', 'change them (default: only count)')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/redact.js')).runRedact(flags)));

  program
    .command('doctor')
    .description('check transcript roots, parse issues (file and line) and database health')
    .option('--issues <n>', 'how many recent issues to list (default 50)')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./commands/doctor.js')).runDoctor(flags)));

  program
    .command('mcp')
    .description('run the MCP server over stdio (for agents)')
    .action(action(async (flags) => (await import('./commands/mcp.js')).runMcp(flags)));

  program
    .command('completion')
    .description('print a shell completion script (commands, subcommands and options)')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action(
      action(async (_flags, shell: string) =>
        (await import('./commands/completion.js')).runCompletion(shell),
      ),
    );

  registerKnowledgeCommands(program);
  registerIntegrationCommands(program);
  registerUiCommand(program);
  addHelpExamples(root);
  return root;
}

/**
 * Run a command line. `command`: its command word, as bin/tapedeck.js found it (it names the
 * code cache by it): only that command is then declared; without it, the whole tree.
 */
export async function main(argv = process.argv, command?: string): Promise<void> {
  // Handled here, not with commander's .version(): a root option is matched anywhere on the line,
  // which would swallow subcommand options such as `skills show X --version 2`.
  const rest = argv.slice(2);
  if (rest.length === 1 && (rest[0] === '-v' || rest[0] === '--version')) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const json = rest.includes('--json');
  // Only the command being run, when the line names one; otherwise (help, which may list every
  // command, a typo to suggest a command for) the whole tree.
  const word = rest.some((a) => a === '-h' || a === '--help') ? undefined : command;
  const one = word === undefined ? undefined : buildProgram({ json, only: word });
  const program = one?.commands.length ? one : buildProgram({ json });
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // help exits 0; usage errors exit 2 (without --json commander already printed the message)
      if (e.exitCode === 0) process.exitCode = 0;
      else failUsage(e.code, e.message, json);
      return;
    }
    fail(e, json);
  }
}

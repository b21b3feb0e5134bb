/**
 * `tapedeck thread import|append|reconcile|handoff|show|list`: saved threads. Declared here; each
 * action loads thread-run.ts (and the engine) only when it runs.
 */
import type { Command } from 'commander';
import { action, jsonOpt } from '../define.js';

const run = () => import('./thread-run.js');

export function registerSavedThreadsCommands(program: Command): void {
  const thread = program
    .command('thread')
    .description(
      'save conversations from any client (import, idempotent append, reconcile) and hand sessions off',
    );

  thread
    .command('import')
    .description(
      'save a conversation: JSON {id?, title, source, messages:[{role, content, timestamp?, external_id?}], space?, metadata?}',
    )
    .requiredOption('--file <file>', 'JSON file to read, or - for standard input')
    .option('--merge', 'if the thread exists, add the messages it lacks instead of failing')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runImport(flags)));

  thread
    .command('append')
    .description('add messages to a saved thread; retries and replays never duplicate them')
    .argument('<id>', 'saved thread id')
    .requiredOption('--file <file>', 'JSON {messages, …} or a list of messages; - for standard input')
    .option(
      '--expected-count <n>',
      'fail with a conflict (writing nothing) unless the thread has exactly n messages',
    )
    .option(
      '--idempotency-key <key>',
      'a replay with the same key returns the first result and writes nothing',
    )
    .option('--no-dedupe', 'keep messages even when the same external id or role and text is already there')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runAppend(id, flags)));

  thread
    .command('reconcile')
    .description('keep the first N messages of a saved thread and replace the rest with a new tail')
    .argument('<id>', 'saved thread id')
    .requiredOption('--matched <n>', 'how many leading messages still match')
    .option(
      '--file <file>',
      'the new tail: JSON {messages} or a list of messages; - for standard input (none: drop the rest)',
    )
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runReconcile(id, flags)));

  thread
    .command('handoff')
    .description('build a short Goal/Decisions/Files/Risks/Next handoff from a session, save it and print it')
    .argument('<id>', 'thread id (an indexed session or a saved thread)')
    .option('--title <title>', 'title of the handoff thread')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runHandoff(id, flags)));

  thread
    .command('show')
    .description('a saved thread with its app, metadata and messages (external ids included)')
    .argument('<id>', 'saved thread id')
    .option('--from <n>', 'first message (0-based, default 0)')
    .option('--limit <n>', 'messages to show (default 1000)')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runShowSaved(id, flags)));

  thread
    .command('list')
    .description('saved threads, most recently changed first')
    .option('--limit <n>', 'how many (default 50)')
    .option('--offset <n>', 'skip this many')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runListSaved(flags)));
}

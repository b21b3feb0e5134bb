/**
 * `tapedeck serve` (the REST API and MCP over HTTP) and `tapedeck keys …` (the API keys it accepts).
 * Declarations only; the work is in serve-run.ts and keys-run.ts.
 */
import type { Command } from 'commander';
import { action, collect, jsonOpt } from '../define.js';

export function registerServeCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the REST API and MCP over HTTP (default 127.0.0.1:7420; other hosts need API keys)')
    .option('--host <host>', 'address to bind (default 127.0.0.1)')
    .option('--port <n>', 'port (default 7420; 0 picks a free one)')
    .option(
      '--refresh <ms>',
      'index new transcripts before answering at most this often (default 2000; 0 never)',
    )
    .option('--log-requests', 'log one line per request to stderr (never keys or headers)')
    .option(
      '--workers <n>',
      'server processes sharing the port, each with its own store connection; auto: one per CPU (default 1)',
    )
    .option(
      '--shutdown-timeout <ms>',
      'on SIGINT/SIGTERM, wait this long for requests in flight (default 10000)',
    )
    .action(action(async (flags) => (await import('./serve-run.js')).runServe(flags)));

  const keys = program
    .command('keys')
    .description('API keys for `tapedeck serve` (tapedeck keys <command> --help)');
  const run = () => import('./keys-run.js');

  keys
    .command('create')
    .description('create a key and print it once (only a hash of it is stored)')
    .requiredOption('--name <name>', 'what the key is for (e.g. "ci", "laptop")')
    .option('--space <space>', 'a space the key sees (repeatable; none: every space)', collect)
    .option('--scope <scope>', 'read (default), write, or admin (also manages keys)')
    .option('--expires <when>', 'when it stops working: 30d, 12h, 2w or a date (default never)')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runKeysCreate(flags)));

  keys
    .command('list')
    .description('list keys (never their secrets)')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runKeysList(flags)));

  keys
    .command('revoke')
    .description('revoke a key: it stops working at once, also on a running server')
    .argument('<id>', 'key id (from tapedeck keys list)')
    .addOption(jsonOpt())
    .action(action(async (flags, id: string) => (await run()).runKeysRevoke(id, flags)));
}

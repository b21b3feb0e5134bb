/**
 * `tapedeck serve` (the REST API and MCP over HTTP) and `tapedeck keys …` (the API keys it accepts).
 * Declarations only; the work is in serve-run.ts, the keys commands in keys.ts.
 */
import type { Command } from 'commander';
import { action } from '../define.js';
import { registerKeysCommands } from './keys.js';

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

  registerKeysCommands(program);
}

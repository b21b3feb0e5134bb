/** `tapedeck ui`: the web page, on a local server started (or reused) in the background. */
import type { Command } from 'commander';
import { action, jsonOpt } from '../define.js';

export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('open the web page: start (or reuse) a local server in the background and print its link')
    .option('--port <n>', 'port of the local server (default 7420)')
    .option('--no-open', 'only print the link, even when a browser could be opened')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await import('./ui-run.js')).runUi(flags)));
}

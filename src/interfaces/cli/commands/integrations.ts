/**
 * Agent integrations: `tapedeck install|uninstall <agent>`, `tapedeck hook <agent> <event>` (what the
 * installed hooks run; bin/tapedeck.js starts it without loading the CLI), `tapedeck queue` and
 * `tapedeck status`. Declarations only; the work is in integrations-run.ts and interfaces/hooks/.
 */
import type { Command } from 'commander';
import { action, jsonOpt } from '../define.js';

const AGENTS = 'antigravity, claude-code, codex or gemini-cli';

export function registerIntegrationCommands(program: Command): void {
  const run = () => import('./integrations-run.js');
  for (const mode of ['install', 'uninstall'] as const) {
    const cmd = program
      .command(mode)
      .description(
        mode === 'install'
          ? `connect an agent (${AGENTS}): hooks, MCP server, skills and instructions; again changes nothing`
          : 'remove what `tapedeck install` added for an agent, and nothing else',
      )
      .argument('<agent>', AGENTS)
      .option(
        '--workspace [dir]',
        'in this project folder (default: the current one) instead of for the user',
      )
      .option('--global', 'for the user, in every project (the default)')
      .option('--dry-run', 'print the plan (files and changed lines) and write nothing');
    if (mode === 'install')
      cmd.option(
        '--retention-days <n>',
        'claude-code: keep transcripts N days (sets Claude Code’s cleanupPeriodDays; never changed otherwise)',
      );
    cmd
      .addOption(jsonOpt())
      .action(action(async (flags, agent: string) => (await run()).runInstallCommand(agent, mode, flags)));
  }

  program
    .command('hook')
    .description('run a hook for an agent (what installed hooks call; reads the host JSON on stdin)')
    .argument('<agent>', AGENTS)
    .argument('<event>', 'the host event, e.g. SessionStart, Stop, PreInvocation, PreToolUse')
    .action(async (agent: string, event: string, _o: unknown, cmd: Command) => {
      const home = cmd.optsWithGlobals().home as string | undefined;
      const { runHook } = await import('../../hooks/main.js');
      await runHook([agent, event, ...(home ? ['--home', home] : [])]);
    });

  const queue = program
    .command('queue')
    .description('sessions waiting to be saved (tapedeck queue <command> --help)');
  queue
    .command('flush')
    .description(
      'save every queued session now (waits for a running worker; ignores backoff and the circuit breaker)',
    )
    .option('--retry-failed', 'also retry sessions that gave up after repeated failures')
    .option('--from-hook', 'as started by a hook: respect backoff and the circuit breaker, do not wait')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runQueueFlush(flags)));
  queue
    .command('list')
    .description('queued, failed and set-aside (corrupted) items')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runQueueList(flags)));

  program
    .command('status')
    .description('is capture working: server, queue, last error, last save per agent, this session')
    .option('--session <id>', 'a session id or <agent>:<session id> (default: from the agent environment)')
    .option('--agent <id>', 'the agent of --session')
    .addOption(jsonOpt())
    .action(action(async (flags) => (await run()).runStatus(flags)));
}

/**
 * `tapedeck context`: the startup payload for an agent session (rules, working memory, relevant
 * memories, skills) within a token budget. Markdown on stdout, or one JSON document.
 */
import type { Command } from 'commander';
import { action, jsonOpt } from '../define.js';

export function registerContextBundleCommands(program: Command): void {
  program
    .command('context')
    .description(
      'the startup context for an agent session within a token budget (rules, working memory, memories, skills)',
    )
    .option('--agent <id>', 'antigravity, claude-code, codex or gemini-cli (for agent-scoped rules)')
    .option('--project <dir>', 'the project directory (for project rules and memories; . for here)')
    .option('--space <name>', 'space (default: TAPEDECK_SPACE, the project mapping, or default)')
    .option(
      '--budget <tokens>',
      'at most this many tokens, 100 to 100,000 (default 1500; estimated as characters/4)',
    )
    .addOption(jsonOpt())
    .action(
      action(async (f) => {
        const { resolve } = await import('node:path');
        const { openEngine } = await import('../context.js');
        const { printJson, warn } = await import('../output.js');
        const engine = openEngine(f);
        try {
          const b = await engine.contextBundle.build({
            agent: f.agent,
            project: f.project ? resolve(f.project) : undefined,
            space: f.space,
            budget: f.budget,
            cwd: process.cwd(),
          });
          if (f.json) printJson(b);
          else {
            process.stdout.write(b.markdown);
            if (process.stderr.isTTY)
              warn(
                `tapedeck: ${b.tokens} of ${b.budget} tokens, ${b.items.length} items, ${b.omitted.length} left out`,
              );
          }
        } finally {
          engine.close();
        }
      }),
    );
}

/**
 * `context`: what a session should know before it starts — the standing rules, today's
 * briefing, the memories and skills that matter for this project — as one bundle within a token
 * budget, or just the rules or just the briefing.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { runOp } from '../../../catalog/index.js';
import { rulesResolve } from '../../../catalog/rules.js';
import { estimateTokens } from '../../../core/token-budget.js';
import { LEAN_READ } from '../annotations.js';
import { renderRule } from '../render.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { agentArg, int, projectArg, projectPath, reply } from './shared.js';

export function registerContextTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  server.registerTool(
    'context',
    {
      description:
        "Call first in a session: the rules to follow, today's briefing, this project's memories and skills, within a token budget. part: rules or briefing alone.",
      inputSchema: {
        part: z.enum(['bundle', 'rules', 'briefing']).optional(),
        agent: agentArg,
        project: projectArg,
        budget: int(100, 100_000).optional().describe('Tokens (1500)'),
      },
      outputSchema: { tokens: z.number(), omitted: z.number() },
      annotations: LEAN_READ,
    },
    guard(async ({ part = 'bundle', agent, project, budget }) => {
      const cwd = process.cwd();
      const dir = projectPath(project);
      if (part === 'rules') {
        const r = await runOp(rulesResolve, engine, { agent, project: dir }, { cwd });
        const text = r.rules.length ? r.rules.map(renderRule).join('\n') : 'No rules apply.';
        return reply(text, { tokens: estimateTokens(text), omitted: 0 });
      }
      if (part === 'briefing') {
        const text = (await engine.workingMemory.read({ cwd })).markdown;
        return reply(text, { tokens: estimateTokens(text), omitted: 0 });
      }
      const b = await engine.contextBundle.build({ agent, project: dir, budget, cwd });
      return reply(b.markdown, { tokens: b.tokens, omitted: b.omitted.length });
    }),
  );
}

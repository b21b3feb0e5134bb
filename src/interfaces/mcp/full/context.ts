/** MCP tool for the context bundle: the startup payload for a session, within a token budget (read-only). */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { AGENT_IDS } from '../../../core/types.js';
import { READ } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';

export function registerContextBundleTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { contextBundle } = engine;
  const cwd = process.cwd();

  server.registerTool(
    'context_bundle',
    {
      title: 'Session context',
      description:
        "Call once at the start of a session: the standing rules to follow, today's briefing, the memories most relevant to this project and the skills index, within a token budget. Ends with what was left out.",
      inputSchema: {
        agent: z.enum(AGENT_IDS).optional().describe('You, for agent-scoped rules'),
        project: z.string().optional().describe('Absolute project directory'),
        space: z.string().optional(),
        budget: z.number().int().min(100).max(100_000).optional().describe('Max tokens (default 1500)'),
      },
      annotations: { title: 'Session context', ...READ },
    },
    guard(async ({ agent, project, space, budget }) => {
      const b = await contextBundle.build({ agent, project, space, budget, cwd });
      return {
        content: [{ type: 'text', text: b.markdown }],
        structuredContent: {
          tokens: b.tokens,
          budget: b.budget,
          omitted: b.omitted.map((o) => ({ kind: o.kind, id: o.id, link: o.link, reason: o.reason })),
        },
      };
    }),
  );
}

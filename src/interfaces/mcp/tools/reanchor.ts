/**
 * `reanchor`: "what was dropped from my context?" — after a compaction, the session's latest ask,
 * plan, decisions, files, last commands and unresolved errors from before it, each with its step
 * link, within a token budget (the same re-anchor the compaction hook injects).
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { threadRef } from '../../../core/memory.js';
import { LEAN_READ } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { agentArg, int, projectArg, projectPath, reply, str } from './shared.js';

export function registerReanchorTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  server.registerTool(
    'reanchor',
    {
      description:
        "After a context compaction: what was dropped (the user's latest ask, plan, files, last commands, open errors). Default: this project's latest session.",
      inputSchema: {
        thread: str(400).optional(),
        project: projectArg,
        agent: agentArg,
        budget: int(100, 8000).optional(),
      },
      outputSchema: { thread: z.string(), tokens: z.number(), omitted: z.number() },
      annotations: LEAN_READ,
    },
    guard(({ thread, project, agent, budget }) => {
      const r = engine.transcripts.reanchor({
        thread: thread === undefined ? undefined : threadRef(thread).thread,
        // Without a thread: the session this server works in is the project's latest.
        project: thread === undefined ? (projectPath(project) ?? process.cwd()) : undefined,
        agent,
        budget,
      });
      return reply(r.text.trimEnd(), { thread: r.thread, tokens: r.tokens, omitted: r.omitted });
    }),
  );
}

/**
 * MCP tools for working memory: `working_memory` reads the daily briefing (read-only: it may
 * refresh a cached copy, which changes nothing a reader sees), `working_memory_refresh`
 * regenerates it (a write that keeps a person's edits; dropping an edit is left to people, on the CLI).
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { IDEMPOTENT_WRITE, READ } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';

const scope = {
  date: z.string().optional().describe('YYYY-MM-DD (UTC) or yesterday; default today'),
  space: z.string().optional(),
};

export function registerWorkingMemoryTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { workingMemory } = engine;
  const cwd = process.cwd();

  server.registerTool(
    'working_memory',
    {
      title: "Today's briefing",
      description:
        "The user's daily briefing: focus projects, recent decisions, open loops, recent sessions, each with a tapedeck:// link. Read it at the start of a session or when asked what is going on; context_bundle already includes it.",
      inputSchema: scope,
      annotations: { title: "Today's briefing", ...READ },
    },
    guard(async ({ date, space }) => ({
      content: [{ type: 'text', text: (await workingMemory.read({ date, space, cwd })).markdown }],
    })),
  );

  server.registerTool(
    'working_memory_refresh',
    {
      title: 'Regenerate the briefing',
      description:
        'Regenerate the daily briefing now (reads regenerate on their own when the store changed or it is an hour old). Sections a person edited are kept.',
      inputSchema: scope,
      annotations: { title: 'Regenerate the briefing', ...IDEMPOTENT_WRITE },
    },
    guard(async ({ date, space }) => ({
      content: [{ type: 'text', text: (await workingMemory.refresh({ date, space, cwd })).markdown }],
    })),
  );
}

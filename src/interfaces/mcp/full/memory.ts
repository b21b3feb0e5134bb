/**
 * MCP tools for memories: the agent is the writer. Search and get are read-only; add, update,
 * supersede and restore write; forget is destructive (restorable, but it hides knowledge) and
 * needs `confirm: true`. Hard deletes (purge) stay on the CLI.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { isTapedeckError } from '../../../core/errors.js';
import { UNIT_TYPES } from '../../../core/memory.js';
import type { MemorySearchResult } from '../../../services/memories.js';
import { DESTRUCTIVE, IDEMPOTENT_WRITE, READ } from '../annotations.js';
import { memoryHead, renderMemory } from '../render.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';

const text = (t: string, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(structured ? { structuredContent: structured } : {}),
});

/** Errors about ids point at the memory tools, not the transcript ones. */
function memoryErrors<A>(fn: (args: A) => CallToolResult): (args: A) => CallToolResult {
  return (args) => {
    try {
      return fn(args);
    } catch (e) {
      if (isTapedeckError(e) && e.code === 'NOT_FOUND')
        return {
          isError: true,
          content: [{ type: 'text', text: `NOT_FOUND: ${e.message}. Hint: memory_search finds memory ids.` }],
        };
      throw e;
    }
  };
}

const cap = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (memory_get for all)` : s);

function renderSearch(r: MemorySearchResult): string {
  if (r.hits.length === 0) return `No memories match "${r.query}". Try other words or fewer filters.`;
  return r.hits.map((h, i) => `[${i + 1}] ${memoryHead(h)}\n${cap(h.content, 400)}`).join('\n');
}

const provenanceShape = {
  thread: z.string().optional().describe('Source thread id or tapedeck://thread/<id>#<step>'),
  steps: z.string().optional().describe('Step range A-B in that thread'),
  source: z.string().optional().describe('Or a source file/URL'),
};
const contentShape = {
  title: z.string().optional(),
  type: z.enum(UNIT_TYPES).optional().describe('Default fact'),
  labels: z.array(z.string()).optional(),
  importance: z.number().optional().describe('0-1, default 0.5'),
  project: z.string().optional().describe('Absolute project dir'),
};

export function registerMemoriesTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { memories } = engine;
  const cwd = process.cwd();

  server.registerTool(
    'memory_add',
    {
      title: 'Remember something',
      description:
        'Save a fact, decision, preference, procedure or learning worth keeping across sessions; cite where it came from. A duplicate returns the existing memory (labels merged).',
      inputSchema: {
        content: z.string().describe('One self-contained idea'),
        ...contentShape,
        ...provenanceShape,
        event_start: z.string().optional().describe('For events: a date'),
        event_end: z.string().optional(),
        space: z.string().optional(),
      },
      annotations: IDEMPOTENT_WRITE,
    },
    guard(
      memoryErrors(({ content, labels, event_start, event_end, ...rest }) => {
        const m = memories.add({
          content,
          ...rest,
          labels,
          eventStart: event_start,
          eventEnd: event_end,
          cwd,
        });
        const how = m.deduplicated ? `already known (${m.match} duplicate); labels merged` : 'saved';
        return text(`${how}: ${memoryHead(m)}`, { id: m.id, deduplicated: m.deduplicated, link: m.link });
      }),
    ),
  );

  server.registerTool(
    'memory_search',
    {
      title: 'Search memories',
      description:
        'Search saved memories before deciding or redoing something, or when the user refers to what was agreed. Ranked by relevance, importance, recency.',
      inputSchema: {
        query: z.string(),
        labels: z.array(z.string()).optional().describe('All of these'),
        type: z.enum(UNIT_TYPES).optional(),
        project: z.string().optional(),
        space: z.string().optional(),
        all_spaces: z.boolean().optional(),
        as_of: z.string().optional().describe('Date: what was valid then, superseded included'),
        since: z.string().optional(),
        until: z.string().optional(),
        limit: z.number().int().min(1).max(50).optional().describe('Default 8'),
      },
      annotations: READ,
    },
    guard(({ query, type, all_spaces, as_of, limit, ...f }) => {
      const r = memories.search(query, {
        ...f,
        types: type,
        allSpaces: all_spaces,
        asOf: as_of,
        limit: limit ?? 8,
        cwd,
      });
      return text(renderSearch(r), { hits: r.hits.map((h) => ({ id: h.id, score: h.score })) });
    }),
  );

  server.registerTool(
    'memory_get',
    {
      title: 'Read a memory',
      description:
        'Read one memory in full, with where it came from (a memory_search hit or a tapedeck:// link).',
      inputSchema: { id: z.string().describe('Id or tapedeck://memory/<id>') },
      annotations: READ,
    },
    guard(memoryErrors(({ id }) => text(renderMemory(memories.get(id))))),
  );

  server.registerTool(
    'memory_update',
    {
      title: 'Correct a memory',
      description:
        'Fix a memory in place (wording, labels, importance). If the fact itself changed, use memory_supersede.',
      inputSchema: {
        id: z.string(),
        content: z.string().optional(),
        ...contentShape,
        labels: z.array(z.string()).optional().describe('Replaces all'),
        add_labels: z.array(z.string()).optional(),
      },
      annotations: IDEMPOTENT_WRITE,
    },
    guard(
      memoryErrors(({ id, add_labels, ...patch }) =>
        text(renderMemory(memories.update(id, { ...patch, addLabels: add_labels }))),
      ),
    ),
  );

  server.registerTool(
    'memory_supersede',
    {
      title: 'Replace a memory',
      description:
        'When a memory is no longer true: saves the new content and retires the old (kept as history, see as_of). Type, labels, importance, project carry over.',
      inputSchema: { id: z.string(), content: z.string(), ...contentShape, ...provenanceShape },
      annotations: { ...IDEMPOTENT_WRITE, idempotentHint: false },
    },
    guard(
      memoryErrors(({ id, ...rest }) => {
        const m = memories.supersede(id, rest);
        return text(`superseded ${m.supersedes.join(', ')} with: ${memoryHead(m)}`, {
          id: m.id,
          supersedes: m.supersedes,
        });
      }),
    ),
  );

  server.registerTool(
    'memory_forget',
    {
      title: 'Forget a memory',
      description: 'Hide a wrong or unwanted memory (memory_restore undoes it). Needs confirm: true.',
      inputSchema: { id: z.string(), confirm: z.boolean().optional() },
      annotations: DESTRUCTIVE,
    },
    guard(
      memoryErrors(({ id, confirm }) => {
        if (confirm !== true)
          return {
            isError: true,
            content: [
              {
                type: 'text',
                text: 'memory_forget hides the memory; call again with confirm: true if that is intended.',
              },
            ],
          };
        const m = memories.forget(id);
        return text(`${m.changed ? 'forgotten' : 'already forgotten'}: ${m.link} (memory_restore undoes it)`);
      }),
    ),
  );

  server.registerTool(
    'memory_restore',
    {
      title: 'Restore a memory',
      description: 'Bring back a memory hidden by memory_forget, into search and listings again.',
      inputSchema: { id: z.string() },
      annotations: IDEMPOTENT_WRITE,
    },
    guard(
      memoryErrors(({ id }) => {
        const m = memories.restore(id);
        return text(`${m.changed ? 'restored' : 'was not forgotten'}: ${memoryHead(m)}`);
      }),
    ),
  );
}

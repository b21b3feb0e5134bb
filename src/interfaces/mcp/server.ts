/**
 * The MCP server: tools over indexed transcripts. It knows no transport (stdio.ts and the HTTP
 * mount wire one up). Every tool is read-only; before answering, the index is brought up to date
 * (cheap when nothing changed, and throttled).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../app/engine.js';
import { VERSION } from '../../app/version.js';
import { isTapedeckError } from '../../core/errors.js';
import { READ } from './annotations.js';
import { registerKnowledgeTools } from './knowledge-tools.js';
import { renderHits, renderSteps, renderThreads } from './render.js';

export interface McpDeps {
  engine: Engine;
  /** Bring the transcript index up to date before reads, at most every `refreshMs` (0 = never). */
  refreshMs?: number;
  log?: (message: string) => void;
}

/** Wraps a tool handler: refreshes the index when due and maps errors to an isError result. */
export type Guard = <A>(
  fn: (args: A) => CallToolResult | Promise<CallToolResult>,
) => (args: A) => Promise<CallToolResult>;

const AGENTS = ['antigravity', 'claude-code', 'codex', 'gemini-cli'] as const;

const filterShape = {
  agent: z.enum(AGENTS).optional().describe('Only this agent'),
  project: z.string().optional().describe('Only sessions whose working directory is this path or below it'),
  since: z.string().optional().describe('From this date: YYYY-MM-DD, ISO time, or a span like 7d / 2w'),
  until: z.string().optional().describe('Up to this date (inclusive)'),
};

export function errorResult(e: unknown): CallToolResult {
  const known = isTapedeckError(e);
  const hint =
    known && e.code === 'NOT_FOUND'
      ? ' Hint: use search_conversations or list_conversations to find valid ids.'
      : known && e.code === 'INVALID_INPUT'
        ? ' Hint: check the arguments against the tool schema.'
        : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${known ? e.code : 'ERROR'}: ${(e as Error).message}${hint}` }],
  };
}

export function buildMcpServer({ engine, refreshMs = 2000, log = () => {} }: McpDeps): McpServer {
  const { transcripts } = engine;
  const stats = () => engine.stats();
  // A refresh never holds an answer for long: a large backlog is indexed a slice per call.
  let pending = 0;
  const refresh =
    refreshMs > 0
      ? () => {
          pending = engine.transcripts.index({ budgetMs: 1500, quick: true }).pending;
        }
      : undefined;
  const catchingUp = () =>
    pending > 0
      ? `\n(index catching up: ${pending} transcript files not read yet; run \`tapedeck index\` to finish now)`
      : '';
  const server = new McpServer(
    { name: 'tapedeck', version: VERSION },
    {
      instructions:
        'Tapedeck remembers past coding-agent sessions (Antigravity, Claude Code, Codex, Gemini CLI). Before re-deriving a decision, debugging something that may have been seen before, or when the user refers to earlier work ("like last time", "why did we…"), call search_conversations, then get_steps on a promising hit.',
    },
  );
  let lastRefresh = 0;
  function fresh(): void {
    if (!refresh || Date.now() - lastRefresh < refreshMs) return;
    lastRefresh = Date.now();
    try {
      refresh();
    } catch (e) {
      log(`index refresh failed: ${(e as Error).message}`);
    }
  }
  const guarded: Guard =
    <A>(fn: (args: A) => CallToolResult | Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        fresh();
        return await fn(args);
      } catch (e) {
        return errorResult(e);
      }
    };

  server.registerTool(
    'search_conversations',
    {
      title: 'Search past agent sessions',
      description:
        'Search every past coding-agent session on this machine (what was asked, decided, run and why). Use it before redoing work, when the user mentions earlier sessions, or to find why something was done. Plain questions work ("why did we drop the redis cache"); also "exact phrase", prefix*, -exclude, identifiers like src/db.ts or ERR_CODE. Returns compact hits: thread#step, role, date, project, title, snippet with «matches».',
      inputSchema: {
        query: z.string().min(1).max(2000).describe('A question or keywords'),
        ...filterShape,
        role: z.enum(['user', 'assistant', 'tool', 'system']).optional().describe('Only steps by this role'),
        thread: z.string().optional().describe('Only inside this thread id'),
        limit: z.number().int().min(1).max(50).optional().describe('Hits to return (default 8)'),
      },
      annotations: { title: 'Search past agent sessions', ...READ },
    },
    guarded(({ query, limit, ...f }) => {
      const r = transcripts.search(query, { ...f, limit: limit ?? 8 });
      return {
        content: [{ type: 'text', text: renderHits(r) + catchingUp() }],
        structuredContent: {
          hits: r.hits.map((h) => ({ thread: h.thread, step: h.step, source: h.source, score: h.score })),
        },
      };
    }),
  );

  server.registerTool(
    'get_steps',
    {
      title: 'Read steps of a past session',
      description:
        'Read a past session in full text: the steps around a hit (thread + step from search_conversations, window = steps on each side), or page through a whole thread (omit step; use from). Each step shows its role, kind, time and transcript line.',
      inputSchema: {
        thread: z.string().min(1).describe('Thread id, e.g. claude-code:<session id>'),
        step: z.number().int().optional().describe('Centre on this step'),
        window: z.number().int().min(0).max(20).optional().describe('Steps on each side (default 3)'),
        from: z.number().int().optional().describe('Paging: first step (default 0)'),
        limit: z.number().int().min(1).max(100).optional().describe('Paging: steps per page (default 20)'),
      },
      annotations: { title: 'Read steps of a past session', ...READ },
    },
    guarded(({ thread, step, window, from, limit }) => {
      const r = transcripts.show({
        thread,
        step,
        window: window ?? 3,
        from,
        limit: limit ?? 20,
        maxChars: 3000,
      });
      return { content: [{ type: 'text', text: renderSteps(r.thread, r.steps, r.next) }] };
    }),
  );

  server.registerTool(
    'list_conversations',
    {
      title: 'List past sessions',
      description:
        'List past coding-agent sessions, most recent first, with id, date, agent, project, size and title. Use it to browse what happened recently or in a project.',
      inputSchema: {
        ...filterShape,
        limit: z.number().int().min(1).max(100).optional().describe('How many (default 20)'),
      },
      annotations: { title: 'List past sessions', ...READ },
    },
    guarded(({ limit, ...f }) => ({
      content: [{ type: 'text', text: renderThreads(transcripts.threads({ ...f, limit: limit ?? 20 })) }],
    })),
  );

  server.registerTool(
    'index_status',
    {
      title: 'Index status',
      description:
        'How many sessions and steps are indexed per agent, when each was last updated, and how many parse issues were recorded.',
      inputSchema: {},
      annotations: { title: 'Index status', ...READ },
    },
    guarded(() => {
      const s = stats();
      const lines = [`${s.threads} threads, ${s.steps} steps, ${s.issues} parse issues${catchingUp()}`];
      for (const [a, x] of Object.entries(s.perAgent))
        lines.push(`${a}: ${x.threads} threads, ${x.steps} steps, last ${x.lastUpdated ?? 'never'}`);
      return { content: [{ type: 'text', text: lines.join('\n') }] };
    }),
  );

  registerKnowledgeTools(server, engine, guarded);
  return server;
}

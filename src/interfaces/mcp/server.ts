/**
 * The MCP server. It knows no transport (stdio.ts and the HTTP mount at /mcp wire one up).
 *
 * Every session pays for `tools/list` before its first call, so the default surface is a few
 * tools chosen by task (tools/*.ts), each with an output schema and honest annotations; the
 * fine-grained per-verb tools (full/*.ts) join them only when `mcpTools` is `full`. Before
 * answering, the transcript index is brought up to date (cheap when nothing changed, throttled).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpToolSet } from '../../app/config.js';
import type { Engine } from '../../app/engine.js';
import { VERSION } from '../../app/version.js';
import { isTapedeckError } from '../../core/errors.js';
import { createBacklogNote } from './backlog-note.js';
import { registerCatalogTools } from './catalog.js';
import { registerContextBundleTools } from './full/context.js';
import { registerMemoriesTools } from './full/memory.js';
import { registerSkillsTools } from './full/skills.js';
import { registerSavedThreadsTools } from './full/thread.js';
import { registerWikiTools } from './full/wiki.js';
import { registerWorkingMemoryTools } from './full/wm.js';
import { createToolList } from './tool-list.js';
import { registerContextTool } from './tools/context.js';
import { registerFsTool } from './tools/fs.js';
import { registerReadTool } from './tools/read.js';
import { registerReanchorTool } from './tools/reanchor.js';
import { registerRecallTool } from './tools/recall.js';
import { registerRememberTool } from './tools/remember.js';
import { registerSkillsTool } from './tools/skills.js';
import { registerThreadsTool } from './tools/threads.js';

export interface McpDeps {
  engine: Engine;
  /** Bring the transcript index up to date before reads, at most every `refreshMs` (0 = never). */
  refreshMs?: number;
  /** Which tools to list (default: the engine's configured `mcpTools`). */
  tools?: McpToolSet;
  log?: (message: string) => void;
}

/** Wraps a tool handler: refreshes the index when due and maps errors to an isError result. */
export type Guard = <A>(
  fn: (args: A) => CallToolResult | Promise<CallToolResult>,
) => (args: A) => Promise<CallToolResult>;

/** A TapedeckError as an `isError` result whose hint names the tool that finds valid ids. */
export function errorResult(e: unknown): CallToolResult {
  const known = isTapedeckError(e);
  const hint =
    known && e.code === 'NOT_FOUND'
      ? ' Hint: recall finds valid links and ids.'
      : known && e.code === 'INVALID_INPUT'
        ? ' Hint: check the arguments against the tool schema.'
        : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `${known ? e.code : 'ERROR'}: ${(e as Error).message}${hint}` }],
  };
}

/** Builds the server over an engine; call `connect(transport)` on the result. */
export function buildMcpServer({
  engine,
  refreshMs = 2000,
  tools: toolSet,
  log = () => {},
}: McpDeps): McpServer {
  const set = toolSet ?? engine.config.mcpTools ?? 'lean';
  // A refresh never holds an answer for long: a large backlog is indexed a slice per call.
  let pending = 0;
  let lastRefresh = 0;
  const backlog = createBacklogNote();
  function fresh(): void {
    if (refreshMs <= 0 || Date.now() - lastRefresh < refreshMs) return;
    lastRefresh = Date.now();
    try {
      pending = engine.transcripts.index({ budgetMs: 1500, quick: true }).pending;
    } catch (e) {
      log(`index refresh failed: ${(e as Error).message}`);
    }
  }
  const server = new McpServer(
    { name: 'tapedeck', version: VERSION },
    {
      instructions:
        'Tapedeck remembers past coding-agent sessions and what was decided. At the start call context; before redoing work or when the user refers to earlier work ("like last time", "why did we…") call recall, then read a hit\'s link; save what should outlive this session with remember.',
    },
  );
  const guard: Guard =
    <A>(fn: (args: A) => CallToolResult | Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        fresh();
        const r = await fn(args);
        const note = r.isError ? '' : backlog(pending);
        const first = r.content[0];
        if (note && first?.type === 'text') first.text = `${first.text}\n${note}`;
        return r;
      } catch (e) {
        return errorResult(e);
      }
    };

  const list = createToolList(server);
  const tools = list.registrar;
  const lean = [
    registerRecallTool,
    registerReadTool,
    registerContextTool,
    registerRememberTool,
    registerSkillsTool,
    registerThreadsTool,
    registerFsTool,
    registerReanchorTool,
  ];
  const full = [
    registerMemoriesTools,
    registerCatalogTools,
    registerSkillsTools,
    registerWikiTools,
    registerSavedThreadsTools,
    registerWorkingMemoryTools,
    registerContextBundleTools,
  ];
  for (const register of set === 'full' ? [...lean, ...full] : lean) register(tools, engine, guard);
  list.install();
  return server;
}

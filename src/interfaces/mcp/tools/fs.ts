/**
 * `fs`: Tapedeck's knowledge as one file tree (the CLI's `tapedeck fs`, docs/fs.md). Reading
 * actions (ls, cat, find, grep, recall) change nothing; write and rm change it, rm only with
 * `confirm: true`, and each change is undoable. Paths are Tapedeck's own, never host files.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { invalidInput, isTapedeckError } from '../../../core/errors.js';
import type { FsEntry, FsService } from '../../../services/fs/index.js';
import { LEAN_DESTRUCTIVE } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { refuse, reply, str } from './shared.js';

/** Lines `cat` returns when no window is asked for (agents pay per token). */
export const CAT_DEFAULT_LINES = 400;

function entryLine(e: FsEntry): string {
  if (e.kind === 'dir')
    return `${e.name}/${e.count !== null ? ` (${e.count})` : ''}${e.title ? ` — ${e.title}` : ''}`;
  const steps = e.info?.steps !== undefined ? ` ${e.info.steps} steps` : '';
  return `${e.name}${e.updated_at ? ` ${e.updated_at.slice(0, 10)}` : ''}${steps}${e.title ? ` — ${e.title}` : ''}`;
}

/** A folder listed, or a file read (a window of lines): what `fs` and `read` show for a path. */
export async function openPath(
  fs: FsService,
  path: string,
  lines: string | undefined,
): Promise<{ text: string; path: string; more: boolean }> {
  const l = await fs.ls(path, { max: 100 });
  if (l.kind === 'dir') {
    const body = l.entries.length ? l.entries.map(entryLine).join('\n') : '(empty)';
    const more =
      l.next_offset !== null ? `\n(${(l.count ?? 0) - l.next_offset} more: find lists them all)` : '';
    return {
      text: `${l.path}${l.count !== null ? ` (${l.count})` : ''}\n${body}${more}`,
      path: l.path,
      more: false,
    };
  }
  const r = await fs.cat(path, { lines: lines ?? `1-${CAT_DEFAULT_LINES}` });
  const of = r.total_lines === null ? 'more' : String(r.total_lines);
  const more = r.more ? `\n(more: lines=${r.to + 1}-)` : '';
  return {
    text: `${r.path} lines ${r.from}-${r.to} of ${of}\n${r.lines.join('\n')}${more}`,
    path: r.path,
    more: r.more,
  };
}

export function registerFsTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { fs } = engine;
  server.registerTool(
    'fs',
    {
      description:
        'Tapedeck as files (/memories /threads /skills /rules /wiki /working-memory) when recall is too narrow: ls, cat (lines A-B), find/grep/recall (query: glob/regex/words); write (content) and rm (confirm: true), undoable.',
      inputSchema: {
        action: z.enum(['ls', 'cat', 'find', 'grep', 'recall', 'write', 'rm']),
        path: str(1024).optional().describe('Default /'),
        query: str(2000).optional(),
        lines: str(40).optional(),
        content: str(2 * 1024 * 1024).optional(),
        confirm: z.boolean().optional(),
      },
      outputSchema: { path: z.string(), more: z.boolean() },
      annotations: LEAN_DESTRUCTIVE,
    },
    guard(
      fsHints(async ({ action, path = '/', query, lines, content, confirm }) => {
        const need = (v: string | undefined, what: string) => {
          if (!v) throw invalidInput(`${action} needs ${what}`);
          return v;
        };
        switch (action) {
          case 'ls':
          case 'cat': {
            const r = await openPath(fs, path, lines);
            return reply(r.text, { path: r.path, more: r.more });
          }
          case 'find': {
            const r = await fs.find(path, { name: query });
            const body = r.entries.map((x) => (x.kind === 'dir' ? `${x.path}/` : x.path)).join('\n');
            return reply(`${body || '(nothing found)'}${r.note ? `\n(partial: ${r.note})` : ''}`, {
              path,
              more: !!r.note,
            });
          }
          case 'grep': {
            const r = await fs.grep(need(query, 'query (a regex)'), path, {});
            const body = r.matches.map((m) => `${m.path}:${m.line}:${m.text}`).join('\n');
            return reply(
              `${body || `(no match in ${r.files_searched} files)`}${r.note ? `\n(partial: ${r.note})` : ''}`,
              { path, more: r.truncated },
            );
          }
          case 'recall': {
            const r = await fs.recall(need(query, 'query'), path, { limit: 8 });
            const body = r.hits
              .map((h) => `${h.path} — ${h.title}\n  ${h.snippet.replace(/\s+/g, ' ')}`)
              .join('\n');
            return reply(body || `Nothing under ${r.path} matches "${r.query}".`, {
              path: r.path,
              more: false,
            });
          }
          case 'write': {
            if (content === undefined) throw invalidInput('write needs content (the whole file)');
            const r = await fs.write(path, content);
            return reply(`${r.note} (${r.link})`, { path: r.canonical, more: false });
          }
          case 'rm': {
            if (confirm !== true)
              return refuse(
                `Not removed: rm needs confirm: true. It would forget, remove or archive ${path} (undoable). Ask the user first if unsure.`,
              );
            const r = await fs.rm(path);
            return reply(`${r.status} ${r.path} (undo: ${r.undo})`, { path: r.path, more: false });
          }
        }
      }),
    ),
  );
}

const NOT_FOUND_HINT = 'fs action=ls on the nearest folder shows what exists.';
const PATH_HINT = 'paths start at / (e.g. /memories/by-id); no "..", no paths on this machine.';

/** fs errors get fs hints rather than the generic ones. */
function fsHints<A>(fn: (args: A) => Promise<CallToolResult>): (args: A) => Promise<CallToolResult> {
  return async (args) => {
    try {
      return await fn(args);
    } catch (e) {
      if (!isTapedeckError(e)) throw e;
      const hint =
        e.code === 'NOT_FOUND'
          ? NOT_FOUND_HINT
          : e.code === 'INVALID_INPUT' && /path|\.\.|URL/.test(e.message)
            ? PATH_HINT
            : undefined;
      if (!hint) throw e;
      return refuse(`${e.code}: ${e.message} Hint: ${hint}`);
    }
  };
}

/**
 * MCP tools for Tapedeck's filesystem. Two tools rather than one, so each carries honest annotations:
 * `fs` reads (ls, cat, stat, find, grep, recall: readOnlyHint, safe to auto-approve) and
 * `fs_write` changes (write, rm: destructiveHint, and rm needs `confirm: true`). The verbs, paths
 * and rules are the CLI's (`tapedeck fs`, docs/fs.md).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { isTapedeckError } from '../../../core/errors.js';
import type { FsEntry } from '../../../services/fs/index.js';
import type { Guard } from '../server.js';

/** Lines `cat` returns when no window is asked for (agents pay per token). */
export const CAT_DEFAULT_LINES = 400;

const text = (t: string, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(structured ? { structuredContent: structured } : {}),
});

/** fs errors get fs hints, not the transcript tools' ones. */
function fsErrors<A>(fn: (args: A) => CallToolResult): (args: A) => CallToolResult {
  return (args) => {
    try {
      return fn(args);
    } catch (e) {
      if (!isTapedeckError(e)) throw e;
      const hint =
        e.code === 'NOT_FOUND'
          ? ' Hint: fs verb=ls on the nearest folder shows what exists.'
          : e.code === 'FORBIDDEN'
            ? ''
            : e.code === 'INVALID_INPUT'
              ? ' Hint: paths start at / (e.g. /memories/by-id); no "..", no paths on this machine.'
              : '';
      return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}${hint}` }] };
    }
  };
}

function entryLine(e: FsEntry): string {
  if (e.kind === 'dir')
    return `${e.name}/${e.count !== null ? ` (${e.count})` : ''}${e.title ? ` — ${e.title}` : ''}`;
  const steps = e.info?.steps !== undefined ? ` ${e.info.steps} steps` : '';
  return `${e.name}${e.updated_at ? ` ${e.updated_at.slice(0, 10)}` : ''}${steps}${e.title ? ` — ${e.title}` : ''}`;
}

export function registerFsTools(server: McpServer, engine: Engine, guard: Guard): void {
  const { fs } = engine;
  const space = z.string().optional().describe('Space (default: the configured one)');

  server.registerTool(
    'fs',
    {
      title: 'Browse Tapedeck as files',
      description:
        'Read Tapedeck\'s knowledge as a file tree: /memories/{by-id,by-label,by-type,by-date}, /threads/{by-id,by-agent,by-date} (past conversations as Markdown), /skills/<name>/SKILL.md, /rules, /wiki/**, /working-memory/today.md. Use it to browse or grep what is remembered when a search is too narrow. verb: ls (list a folder), cat (read a file; lines="A-B" for a window, default the first 400 lines), stat, find (name glob, type), grep (JavaScript regex, line numbers, bounded), recall (ranked search under a path). Paths are Tapedeck\'s own, never files on this machine.',
      inputSchema: {
        verb: z.enum(['ls', 'cat', 'stat', 'find', 'grep', 'recall']),
        path: z.string().max(1024).optional().describe('Default /'),
        lines: z.string().max(40).optional().describe('cat: a window such as 1-80 or 81-'),
        pattern: z.string().max(1000).optional().describe('grep: the regex'),
        ignore_case: z.boolean().optional().describe('grep: ignore case'),
        query: z.string().max(2000).optional().describe('recall: what to look for'),
        name: z.string().max(200).optional().describe('find: a name glob, e.g. *.md'),
        type: z.enum(['file', 'dir']).optional().describe('find: only files or folders'),
        max: z.number().int().min(1).max(1000).optional().describe('ls/find/grep: at most this many'),
        offset: z.number().int().min(0).optional().describe('ls: paging'),
        limit: z.number().int().min(1).max(50).optional().describe('recall: hits per kind (default 8)'),
        space,
      },
      annotations: {
        title: 'Browse Tapedeck as files',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    guard(
      fsErrors((a) => {
        const path = a.path ?? '/';
        const scope = { space: a.space };
        switch (a.verb) {
          case 'ls': {
            const r = fs.ls(path, { ...scope, max: a.max ?? 100, offset: a.offset });
            const more = r.next_offset !== null ? `\n(more: offset=${r.next_offset})` : '';
            const body = r.entries.length ? r.entries.map(entryLine).join('\n') : '(empty)';
            return text(
              `${r.path}${r.count !== null && r.kind === 'dir' ? ` (${r.count})` : ''}\n${body}${more}`,
              {
                path: r.path,
                next_offset: r.next_offset,
              },
            );
          }
          case 'cat': {
            const r = fs.cat(path, { ...scope, lines: a.lines ?? `1-${CAT_DEFAULT_LINES}` });
            const of = r.total_lines === null ? 'more' : String(r.total_lines);
            const head = `${r.path} lines ${r.from}-${r.to} of ${of}`;
            const more = r.more ? `\n(more: lines=${r.to + 1}-)` : '';
            return text(`${head}\n${r.lines.join('\n')}${more}`, {
              path: r.path,
              from: r.from,
              to: r.to,
              more: r.more,
            });
          }
          case 'stat': {
            const r = fs.stat(path, scope);
            const info = Object.entries(r.info).map(([k, v]) => `${k}: ${v ?? ''}`);
            return text(
              [
                `${r.path} ${r.kind}${r.kind === 'file' ? ` ${r.size} bytes ${r.lines} lines` : ''}${r.writable ? ' writable' : ' read-only'}`,
                r.title ? `title: ${r.title}` : '',
                r.updated_at ? `updated: ${r.updated_at}` : '',
                `link: ${r.link}`,
                r.canonical && r.canonical !== r.path ? `canonical: ${r.canonical}` : '',
                ...info,
              ]
                .filter(Boolean)
                .join('\n'),
              { ...r },
            );
          }
          case 'find': {
            const r = fs.find(path, { ...scope, name: a.name, type: a.type, max: a.max });
            const body =
              r.entries.map((x) => (x.kind === 'dir' ? `${x.path}/` : x.path)).join('\n') ||
              '(nothing found)';
            return text(`${body}${r.note ? `\n(partial: ${r.note})` : ''}`);
          }
          case 'grep': {
            if (!a.pattern)
              return {
                isError: true,
                content: [{ type: 'text', text: 'INVALID_INPUT: grep needs pattern' }],
              };
            const r = fs.grep(a.pattern, path, { ...scope, ignoreCase: a.ignore_case, max: a.max });
            const body = r.matches.map((m) => `${m.path}:${m.line}:${m.text}`).join('\n');
            return text(
              `${body || `(no match in ${r.files_searched} files)`}${r.note ? `\n(partial: ${r.note})` : ''}`,
              { matches: r.matches.length, truncated: r.truncated },
            );
          }
          case 'recall': {
            if (!a.query)
              return {
                isError: true,
                content: [{ type: 'text', text: 'INVALID_INPUT: recall needs query' }],
              };
            const r = fs.recall(a.query, path, { ...scope, limit: a.limit ?? 8 });
            const body = r.hits
              .map((h) => `${h.path} — ${h.title}\n  ${h.snippet.replace(/\s+/g, ' ')}`)
              .join('\n');
            return text(body || `Nothing under ${r.path} matches "${r.query}".`);
          }
        }
      }),
    ),
  );

  server.registerTool(
    'fs_write',
    {
      title: 'Write or remove a Tapedeck file',
      description:
        'Change Tapedeck through its file tree. verb=write: /memories/by-id/new.md creates a memory (optional front matter: title, type, labels, importance, project, thread, steps, source; the body is the content; also under by-label/<label>/ or by-type/<type>/); writing an existing memory file supersedes it; /skills/<name>/SKILL.md adds a skill or a new version; /wiki/<path>.md creates or replaces a page; /working-memory/today.md edits briefing sections. verb=rm (needs confirm: true): forgets a memory, removes a wiki page, archives a skill — each undoable. /threads and /rules are read-only.',
      inputSchema: {
        verb: z.enum(['write', 'rm']),
        path: z.string().min(1).max(1024),
        content: z
          .string()
          .max(2 * 1024 * 1024)
          .optional()
          .describe('write: the whole file'),
        confirm: z.boolean().optional().describe('rm: must be true'),
        space,
      },
      annotations: {
        title: 'Write or remove a Tapedeck file',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    guard(
      fsErrors(({ verb, path, content, confirm, space }) => {
        if (verb === 'write') {
          if (content === undefined)
            return { isError: true, content: [{ type: 'text', text: 'INVALID_INPUT: write needs content' }] };
          const r = fs.write(path, content, { space });
          return text(`${r.note} (${r.link})`, { ...r });
        }
        if (confirm !== true)
          return {
            isError: true,
            content: [
              {
                type: 'text',
                text: `Not removed: rm needs confirm: true. It would forget, remove or archive ${path} (undoable). Ask the user first if unsure.`,
              },
            ],
          };
        const r = fs.rm(path, { space });
        return text(`${r.status} ${r.path} (undo: ${r.undo})`, { ...r });
      }),
    ),
  );
}

/** MCP tools for wiki pages: read, write, search (removal goes through the fs tool, confirmed). */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { MAX_WIKI_CONTENT } from '../../../services/wiki.js';
import { IDEMPOTENT_WRITE, READ } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';

const space = z.string().optional().describe('Space (default: the configured one)');
const path = z.string().min(1).max(200).describe('Page path, e.g. architecture/payments.md');
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

export function registerWikiTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { wiki } = engine;

  server.registerTool(
    'wiki_read',
    {
      title: 'Read a wiki page',
      description:
        'Read a project wiki page (architecture notes, runbooks, glossaries kept across sessions). Without a path, lists the pages (under folder when given).',
      inputSchema: {
        path: path.optional(),
        folder: z.string().max(200).optional().describe('When listing: only pages under this folder'),
        version: z.number().int().min(1).optional().describe('An earlier version'),
        space,
      },
      annotations: { title: 'Read a wiki page', ...READ },
    },
    guard(async ({ path, folder, version, space }) => {
      if (!path) {
        const pages = await wiki.list(folder, { space });
        return text(
          pages.length
            ? pages.map((p) => `${p.path} v${p.version} — ${p.title}`).join('\n')
            : 'No wiki pages.',
        );
      }
      const p = await wiki.read(path, { space, version });
      return {
        ...text(`${p.path} v${p.shown_version} (${p.updated_at.slice(0, 10)})\n\n${p.content}`),
        structuredContent: { path: p.path, version: p.shown_version },
      };
    }),
  );

  server.registerTool(
    'wiki_write',
    {
      title: 'Write a wiki page',
      description:
        'Create or replace a wiki page with Markdown, to keep notes worth reusing in later sessions. Pass expected_version (from wiki_read; 0 = new page) to avoid overwriting someone else’s edit.',
      inputSchema: {
        path,
        content: z
          .string()
          .min(1)
          .max(MAX_WIKI_CONTENT)
          .describe('The whole page (Markdown; the first heading is its title)'),
        expected_version: z.number().int().min(0).optional(),
        space,
      },
      annotations: { title: 'Write a wiki page', ...IDEMPOTENT_WRITE },
    },
    guard(async ({ path, content, expected_version, space }) => {
      const r = await wiki.write(path, content, { space, expectedVersion: expected_version });
      return { ...text(`${r.status}: ${r.path} v${r.version} — ${r.title}`), structuredContent: { ...r } };
    }),
  );

  server.registerTool(
    'wiki_search',
    {
      title: 'Search the wiki',
      description:
        'Search wiki pages by words or "a phrase" (optionally under a folder); returns path, title and an excerpt.',
      inputSchema: {
        query: z.string().min(1).max(2000),
        folder: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(50).optional().describe('Hits (default 8)'),
        space,
      },
      annotations: { title: 'Search the wiki', ...READ },
    },
    guard(async ({ query, folder, limit, space }) => {
      const r = await wiki.search(query, { space, prefix: folder, limit: limit ?? 8 });
      return text(
        r.hits.length
          ? r.hits.map((h) => `${h.path} — ${h.title}\n${h.snippet.replace(/\s+/g, ' ')}`).join('\n')
          : `No wiki page matches "${query}".`,
      );
    }),
  );
}

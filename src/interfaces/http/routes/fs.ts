/** The knowledge fs (/memories, /threads, /skills, /rules, /wiki, /working-memory) over HTTP. */
import { z } from 'zod';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qBool, qInt, spaceField } from './schemas.js';

const path = z.string().min(1).max(2000).describe('An fs path, e.g. /memories/decisions');
const space = spaceField.optional();

export const FsWriteBody = z.strictObject({ path, content: z.string().max(2 * 1024 * 1024), space });

export function registerFsRoutes({ app, registry }: RoutesContext): void {
  const tag = 'fs';
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/fs/ls',
    tag,
    summary: "A folder's children, a page at a time",
    query: z.object({ path, long: qBool(), max: qInt(1, 1000), offset: qInt(0, 10_000_000), space }),
    handler: ({ engine, query: { path: p, ...o } }) => engine.fs.ls(p, o),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/fs/cat',
    tag,
    summary: "A file's text, or a 1-based line window (lines=A-B)",
    query: z.object({ path, lines: z.string().max(40).optional(), space }),
    handler: ({ engine, query: { path: p, ...o } }) => engine.fs.cat(p, o),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/fs/stat',
    tag,
    summary: 'What a path is',
    query: z.object({ path, space }),
    handler: ({ engine, query: { path: p, ...o } }) => engine.fs.stat(p, o),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/fs/find',
    tag,
    summary: 'Entries under a path by name glob and kind',
    query: z.object({
      path,
      name: z.string().max(200).optional(),
      type: z.enum(['f', 'd', 'file', 'dir']).optional(),
      max: qInt(1, 1000),
      space,
    }),
    handler: ({ engine, query: { path: p, ...o } }) => engine.fs.find(p, o),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/fs/grep',
    tag,
    summary: 'A regular expression over the lines of every file under a path (bounded)',
    query: z.object({
      pattern: z.string().min(1).max(500),
      path,
      ignore_case: qBool(),
      max: qInt(1, 1000),
      space,
    }),
    handler: ({ engine, query: { pattern, path: p, ignore_case, ...o } }) =>
      engine.fs.grep(pattern, p, { ...o, ignoreCase: ignore_case }),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/fs/recall',
    tag,
    summary: "Search under a path with each domain's own ranking",
    query: z.object({ q: z.string().min(1).max(2000), path, limit: qInt(1, 50), space }),
    handler: ({ engine, query: { q, path: p, ...o } }) => engine.fs.recall(q, p, o),
  });
  addRoute(app, registry, {
    method: 'put',
    path: '/v1/fs/file',
    tag,
    summary: 'Write a file where the tree is writable',
    body: FsWriteBody,
    bodyLimit: 3 * 1024 * 1024,
    handler: ({ engine, body }) => engine.fs.write(body.path, body.content, { space: body.space }),
  });
  addRoute(app, registry, {
    method: 'delete',
    path: '/v1/fs/file',
    tag,
    summary: 'Remove a file (memories forgotten, wiki pages tombstoned, skills archived)',
    query: z.object({ path, space }),
    handler: ({ engine, query: { path: p, ...o } }) => engine.fs.rm(p, o),
  });
}

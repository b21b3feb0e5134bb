/**
 * The web page (built by `npm run build` into dist/web/: index.html and assets/*), served at `/`
 * without auth: the files hold no data, and every API call the page makes carries the token.
 * Files are read once and kept in memory. The page may load only what this server serves
 * (Content-Security-Policy `default-src 'self'`), and never sits in another site's frame.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Context, Hono } from 'hono';
import { packagePath } from '../../app/package-path.js';
import type { HttpEnv } from './env.js';
import { errorBody } from './errors.js';

/** What the page may load and where it may send requests: its own server, nothing else. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

/** The built page in the package (dist/web), whether this runs from src/, dist/ or the bundle. */
export const defaultWebRoot = (): string => packagePath('dist', 'web');

interface Asset {
  body: Uint8Array;
  type: string;
}

function loadAssets(root: string): Map<string, Asset> {
  const files = new Map<string, Asset>();
  const add = (urlPath: string, file: string) =>
    files.set(urlPath, {
      body: readFileSync(file),
      type: TYPES[extname(file)] ?? 'application/octet-stream',
    });
  if (!existsSync(join(root, 'index.html'))) return files;
  add('/', join(root, 'index.html'));
  const assets = join(root, 'assets');
  if (existsSync(assets))
    for (const name of readdirSync(assets))
      if (TYPES[extname(name)]) add(`/assets/${name}`, join(assets, name));
  const icon = files.get('/assets/favicon.svg');
  if (icon) files.set('/favicon.ico', icon);
  return files;
}

/** Register `/`, `/index.html`, `/assets/*` and `/favicon.ico` (before auth: they are public). */
export function registerWebPage(app: Hono<HttpEnv>, root = defaultWebRoot()): void {
  let files: Map<string, Asset> | undefined;
  const serve = (c: Context<HttpEnv>, path: string) => {
    files ??= loadAssets(root);
    const asset = files.get(path);
    if (!asset)
      return c.json(
        errorBody(
          'NOT_FOUND',
          files.size === 0
            ? `The web page is not built (no ${join(root, 'index.html')}); run npm run build`
            : `No page asset ${path}`,
        ),
        404,
      );
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, {
      'content-type': asset.type,
      'content-security-policy': PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
  };
  app.get('/', (c) => serve(c, '/'));
  app.get('/index.html', (c) => serve(c, '/'));
  app.get('/favicon.ico', (c) => serve(c, '/favicon.ico'));
  app.get('/assets/:name', (c) => serve(c, `/assets/${c.req.param('name')}`));
}

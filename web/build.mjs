// Bundles the web page into dist/web/ (run by `npm run build` after tsc): one script, one style
// sheet, the HTML shell and an icon. esbuild is already in node_modules (tsx uses it); nothing is
// fetched, and the result works offline.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'web');
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  outfile: join(out, 'assets', 'app.js'),
  logLevel: 'warning',
});
copyFileSync(join(here, 'index.html'), join(out, 'index.html'));
copyFileSync(join(here, 'style.css'), join(out, 'assets', 'app.css'));
copyFileSync(join(here, 'favicon.svg'), join(out, 'assets', 'favicon.svg'));

// Bundles the compiled CLI and hook runtime (dist/) into dist/bundle/, which bin/tapedeck.js runs:
// a `tapedeck search` loading ~200 small modules spent most of its time resolving and linking
// them. Lazily imported commands and backends stay separate chunks, loaded only when used.
// Packages stay in node_modules, except commander, which every command loads (bundled, it skips
// Node's CommonJS-from-ESM export scan). Runs after tsc in `npm run build` (so at pack time too).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['dist/interfaces/cli/main.js', 'dist/interfaces/hooks/main.js'],
  outbase: 'dist',
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [
    {
      // commander requires node:child_process at load for executable subcommands, which Tapedeck
      // does not use; the module costs several milliseconds of every command's start.
      name: 'lazy-child-process-for-commander',
      setup(b) {
        b.onResolve({ filter: /^node:child_process$/ }, (a) =>
          a.importer.includes('/commander/') ? { path: a.path, namespace: 'lazy-builtin' } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (a) => ({
          contents: `let m;\nmodule.exports = new Proxy({}, { get: (_, k) => (m ??= require(${JSON.stringify(a.path)}))[k] });`,
          loader: 'js',
        }));
      },
    },
    {
      name: 'packages-external-but-commander',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (a) =>
          a.path === 'commander' || a.path.startsWith('node:') ? undefined : { path: a.path, external: true },
        );
      },
    },
  ],
  // Bundled CommonJS (commander) requires Node built-ins, and an ES module has no `require`: give
  // each chunk one, made on first use (most chunks never call it).
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module';\nlet __req;\nconst require = (id) => (__req ??= __createRequire(import.meta.url))(id);",
  },
  logLevel: 'warning',
});
// The parse worker runs in its own thread: one file, beside the chunks (the code that starts it
// looks for it next to itself).
await build({
  absWorkingDir: root,
  entryPoints: ['dist/app/parse-worker.js'],
  outfile: join(outdir, 'chunks', 'parse-worker.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});

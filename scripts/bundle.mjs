// Bundles the compiled CLI and hook runtime (dist/) into dist/bundle/, which bin/tapedeck.js runs:
// a `tapedeck search` loading ~200 small modules spent most of its time resolving and linking
// them. Lazily imported commands and backends stay separate chunks, loaded only when used.
// Packages stay in node_modules, except commander, which every command loads (bundled, it skips
// Node's CommonJS-from-ESM export scan). Runs after tsc in `npm run build` (so at pack time too).
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const nodeRequire = createRequire(import.meta.url);
const LAZY_BUILTINS = /^node:(child_process|zlib|vm)$/;
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
      // Built-ins that only some commands use, loaded on first use instead of at start: a search
      // imports the whole engine, whose skills, fs and archive services name them, and
      // node:child_process alone (which pulls in net, dgram and streams) costs ~6 ms of every
      // start. commander requires it too, for executable subcommands Tapedeck does not use. Each
      // becomes a module whose exports are getters that load the real one when first read.
      name: 'lazy-builtins',
      setup(b) {
        // The stand-in's own require is of the real module (left to Node).
        b.onResolve({ filter: LAZY_BUILTINS }, (a) =>
          a.namespace === 'lazy-builtin' ? { path: a.path, external: true } : { path: a.path, namespace: 'lazy-builtin' },
        );
        b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (a) => {
          const id = JSON.stringify(a.path);
          const names = Object.keys(nodeRequire(a.path)).filter((k) => k !== 'default');
          const getters = names.map((k) => `  ${JSON.stringify(k)}: { get: () => load()[${JSON.stringify(k)}], enumerable: true },`);
          return {
            contents: `let m;\nconst load = () => (m ??= require(${id}));\nmodule.exports = Object.defineProperties({}, {\n${getters.join('\n')}\n});`,
            loader: 'js',
          };
        });
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

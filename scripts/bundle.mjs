// Bundles the compiled CLI and hook runtime (dist/) into dist/bundle/cli.cjs and hook.cjs, which
// bin/tapedeck.js runs: a `tapedeck search` loading ~200 small modules spent most of its time
// resolving and linking them. CommonJS, one file per entry, so that bin/ can compile it with a V8
// code cache (bin/load-bundle.js; Node 20 has no code cache for ES modules): the ES module chunks
// this replaced were compiled from scratch on every run. Lazily imported commands and backends
// are still initialised only when imported (esbuild wraps them), so a search runs no PostgreSQL,
// MCP or HTTP code; their source is in the file but never compiled. Packages stay in
// node_modules, except commander, which every command loads. Runs after tsc in `npm run build`
// (so at pack time too).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const nodeRequire = createRequire(import.meta.url);
const LAZY_BUILTINS = /^node:(child_process|crypto|zlib|vm)$/;
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { cli: 'dist/interfaces/cli/main.js', hook: 'dist/interfaces/hooks/main.js' },
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // `import()` of a package or built-in becomes `require`: a script compiled by node:vm has no
  // module loader for `import()` on every Node this supports (and all of them are CommonJS).
  supported: { 'dynamic-import': false },
  // The modules find files beside themselves from import.meta.url (package-path, the parse worker).
  define: { 'import.meta.url': '__importMetaUrl' },
  banner: { js: "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [
    {
      // Built-ins that only some commands use, loaded on first use instead of at start: a search
      // imports the whole engine, whose skills, fs and archive services name them, and
      // node:child_process alone (which pulls in net, dgram and streams) costs ~6 ms of every
      // start. commander requires it too, for executable subcommands Tapedeck does not use.
      // node:crypto (keys, archive, saved threads and the indexer name it; a search uses none)
      // brings ~15 internal modules and the stream classes with it. Each
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
  write: false,
  logLevel: 'warning',
});
/**
 * `text` in ASCII only: esbuild escapes strings but leaves regular expressions and comments as
 * written, and a few non-ASCII characters make reading the file as UTF-8 take 15–30 ms instead of
 * 1 (V8 builds a two-byte string); ASCII, bin/load-bundle.js reads it as latin1. Each character
 * becomes a \\u escape, which means the same in a string, a template's cooked text, a regular
 * expression (a surrogate pair is one code point under the u flag) and an identifier; an identity
 * escape (`\\’`) loses its backslash. Only a template's raw text would differ: the one tag function
 * (storage/sql.ts) reads the cooked strings, and the build stops at `String.raw` or `….raw[i]`.
 */
function ascii(text) {
  if (/String\.raw|\.raw\s*\[/.test(text)) throw new Error('bundle.mjs: a raw template would change when escaped');
  const out = text.replace(/(\\*)([^\x00-\x7f])/gu, (_, slashes, ch) => {
    const units = [...ch].flatMap((c) => {
      const cp = c.codePointAt(0);
      return cp > 0xffff ? [0xd800 + ((cp - 0x10000) >> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff)] : [cp];
    });
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return kept + units.map((u) => `\\u${u.toString(16).padStart(4, '0')}`).join('');
  });
  if (/[^\x00-\x7f]/.test(out)) throw new Error('bundle.mjs: the bundle is not ASCII');
  return out;
}
// The first line names the build: bin/load-bundle.js keys its code cache on it (V8 itself checks
// only the source's length, so a rebuilt bundle of the same length would run a stale cache).
for (const f of result.outputFiles) {
  const text = ascii(f.text);
  const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, `// tapedeck-bundle ${id}\n${text}`);
}
// The parse worker runs in its own thread: one file, beside the bundles (the code that starts it
// looks for it next to itself).
await build({
  absWorkingDir: root,
  entryPoints: ['dist/app/parse-worker.js'],
  outfile: join(outdir, 'parse-worker.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});

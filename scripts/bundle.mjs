// Bundles the compiled CLI and hook runtime (dist/) into dist/bundle/, which bin/tapedeck.js runs:
// a `tapedeck search` loading ~200 small modules spent most of its time resolving and linking
// them. Lazily imported commands and backends stay separate chunks, loaded only when used.
// Packages stay in node_modules, except commander and better-sqlite3's JavaScript (below).
//
// The chunks are CommonJS (esbuild splits as ES modules, then each chunk is converted), run by
// bin/load-bundle.js through node:vm with a V8 code cache: Node 20 has no code cache for ES
// modules, and compiling the chunks at every start was the largest part of a search's start.
// Runs after tsc in `npm run build` (so at pack time too).
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';

const root = join(import.meta.dirname, '..');
const nodeRequire = createRequire(import.meta.url);
const LAZY_BUILTINS = /^node:(child_process|crypto|zlib|vm)$/;
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
/**
 * One entry bundled with its own chunks. The CLI and the hooks are built apart: split together, the
 * code they share is cut into many small chunks by which of their paths uses it, and a session end
 * loaded 16 files where its own split needs a few (each file is a read and a script to set up).
 */
const bundleEntry = (entry, chunks) =>
  build({
  absWorkingDir: root,
  entryPoints: [entry],
  outbase: 'dist',
  outdir,
  chunkNames: `${chunks}/[name]-[hash]`,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Modules find files beside themselves from import.meta.url (package-path, the parse worker);
  // a CommonJS chunk gets it from its __filename (below).
  define: { 'import.meta.url': '__importMetaUrl' },
  plugins: [
    {
      // Built-ins that only some commands use, loaded on first use instead of at start: a search
      // imports the whole engine, whose skills, fs and archive services name them, and
      // node:child_process alone (which pulls in net, dgram and streams) costs ~6 ms of every
      // start. commander requires it too, for executable subcommands Tapedeck does not use.
      // node:crypto (keys, archive, saved threads and the indexer name it; a search uses none)
      // brings ~15 internal modules and the stream classes with it. Each becomes a module whose
      // exports are getters that load the real one when first read.
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
      // commander is loaded by every command, and better-sqlite3's JavaScript by every command that
      // opens the store (open.ts loads its native addon itself): bundled, both are compiled with
      // the code cache.
      name: 'packages-external-but-commander-and-better-sqlite3',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (a) =>
          a.path === 'commander' || a.path === 'better-sqlite3' || a.path.startsWith('node:')
            ? undefined
            : { path: a.path, external: true },
        );
      },
    },
  ],
  write: false,
  logLevel: 'warning',
});
const CHUNK_DIRS = ['chunks', 'hook-chunks'];
const results = await Promise.all([
  bundleEntry('dist/interfaces/cli/main.js', CHUNK_DIRS[0]),
  bundleEntry('dist/interfaces/hooks/main.js', CHUNK_DIRS[1]),
]);

/**
 * `text` in ASCII only: esbuild escapes strings but leaves regular expressions and comments as
 * written, and a few non-ASCII characters make reading a file as UTF-8 several times slower (V8
 * builds a two-byte string); ASCII, bin/load-bundle.js reads it as latin1. Each character
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

/** One ES module chunk as a CommonJS module: `import()` of a chunk becomes a `require`. */
async function commonJs(text) {
  const { code } = await transform(text, {
    format: 'cjs',
    loader: 'js',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
  });
  const url = code.includes('__importMetaUrl')
    ? "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;\n"
    : '';
  return ascii(url + code);
}

const files = await Promise.all(
  results.flatMap((r) => r.outputFiles).map(async (f) => ({ path: f.path, text: await commonJs(f.text) })),
);
// The first line of each entry names the build (bin/load-bundle.js keys the code cache on it:
// V8 itself checks only a source's length) and, for the CLI, the commands (each gets a cache).
const build_ = createHash('sha256');
for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) build_.update(f.path).update(f.text);
const id = build_.digest('hex').slice(0, 16);
const { buildProgram } = await import(pathToFileURL(join(root, 'dist', 'interfaces', 'cli', 'main.js')).href);
const commands = buildProgram().commands.map((c) => c.name());
for (const f of files) {
  const entry = relative(outdir, f.path);
  const head =
    entry === join('interfaces', 'cli', 'main.js')
      ? `// tapedeck-bundle ${JSON.stringify({ build: id, commands })}\n`
      : entry === join('interfaces', 'hooks', 'main.js')
        ? `// tapedeck-bundle ${JSON.stringify({ build: id })}\n`
        : '';
  mkdirSync(dirname(f.path), { recursive: true });
  writeFileSync(f.path, head + f.text);
}
// The parse worker runs in its own thread, as an ES module Node loads itself: one file, beside
// each build's chunks (the code that starts it looks for it next to itself; a session start whose
// context bundle is out of date indexes too).
const worker = await build({
  absWorkingDir: root,
  entryPoints: ['dist/app/parse-worker.js'],
  outfile: join(outdir, 'parse-worker.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  write: false,
  logLevel: 'warning',
});
for (const dir of CHUNK_DIRS) {
  mkdirSync(join(outdir, dir), { recursive: true });
  writeFileSync(join(outdir, dir, 'parse-worker.js'), worker.outputFiles[0].contents);
}

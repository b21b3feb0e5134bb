/**
 * A SQLite user's command never loads the PostgreSQL stores or the client of a remote server:
 * what a command statically imports holds neither (they arrive through app/backends.ts only when
 * the configuration names them), and the built CLI a person runs never runs their code.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const STATIC = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm;

function staticGraph(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(entry, 'utf8');
  for (const m of text.matchAll(STATIC)) {
    const line = text.slice(text.lastIndexOf('\n', m.index) + 1, text.indexOf('\n', m.index));
    if (/^\s*(?:import|export)\s+type\s/.test(line)) continue;
    if (m[1].startsWith('.')) staticGraph(resolve(dirname(entry), m[1].replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

for (const command of ['search', 'index', 'threads', 'show', 'stats']) {
  it(`\`tapedeck ${command}\` imports no PostgreSQL or client-mode module up front`, () => {
    const files = [...staticGraph(join(SRC, 'interfaces', 'cli', 'commands', `${command}.ts`))].map((f) =>
      relative(SRC, f),
    );
    assert.ok(files.includes(join('app', 'engine.ts')), 'the graph reaches the engine');
    for (const f of files) assert.doesNotMatch(f, /^storage\/postgres\/|^app\/remote\//, f);
  });
}

it('the built CLI answers a search on SQLite without running PostgreSQL code (npm run build first)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-lean-'));
  try {
    // Preloaded: lists every file the process required (the bundle's packages and Node's own CommonJS
    // loads) when it exits.
    const list = join(dir, 'loaded.txt');
    const preload = join(dir, 'list.cjs');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, Object.keys(require.cache).join('\\n')));\n`,
    );
    const cache = join(dir, 'cache');
    const r = spawnSync(
      process.execPath,
      ['--require', preload, join(ROOT, 'bin', 'tapedeck.js'), 'search', '--json', 'anything'],
      {
        env: {
          HOME: dir,
          TAPEDECK_CODE_CACHE: cache,
          TAPEDECK_HOME: join(dir, 'td'),
          PATH: process.env.PATH ?? '',
        },
        encoding: 'utf8',
      },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).hits, []);
    const loaded = readFileSync(list, 'utf8').split('\n');
    assert.ok(
      loaded.some((f) => f.endsWith(join('bin', 'load-bundle.js'))),
      `runs the bundle; loaded: ${loaded.join(' ')}`,
    );
    for (const f of loaded) assert.doesNotMatch(f, /node_modules\/(pg|hono|@modelcontextprotocol|zod)\//, f);
    for (const f of loaded)
      assert.doesNotMatch(f, /\/dist\/(storage|app|interfaces)\//, `${f}: not the bundle`);
    // The code cache written after the search names each chunk the search loaded and holds the
    // bytecode of every function it ran (its SQL text included).
    const [file] = readdirSync(cache);
    assert.match(file, /-cli-search-/);
    const code = readFileSync(join(cache, file)).toString('latin1');
    assert.match(code, /steps_fts MATCH/, 'the cache holds the search that ran');
    const chunks = [...new Set(code.match(/(?:chunks|interfaces)\/[\w/.-]+\.js/g))];
    assert.ok(chunks.includes(join('interfaces', 'cli', 'main.js')), chunks.join(' '));
    // A handful of chunks (the unbundled CLI loaded 207 modules for a search).
    assert.ok(chunks.length <= 30, `${chunks.length} chunks: ${chunks.join(' ')}`);
    for (const chunk of chunks) {
      const text = readFileSync(join(ROOT, 'dist', 'bundle', chunk), 'utf8');
      assert.doesNotMatch(
        text,
        /CREATE EXTENSION|MIGRATION_LOCK|createPgTranscriptStore/,
        `${chunk} holds PostgreSQL code`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

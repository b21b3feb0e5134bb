/**
 * A SQLite user's command never loads the PostgreSQL stores or the client of a remote server:
 * what a command statically imports holds neither (they arrive through app/backends.ts only when
 * the configuration names them), and the built CLI a person runs loads only small chunks.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';
import { pathToFileURL } from 'node:url';

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

it('the built CLI answers a search on SQLite without loading the PostgreSQL chunk (npm run build first)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-lean-'));
  try {
    // A loader hook that lists every module URL the process loads. It appends to a file at once: the
    // hooks run on their own thread, whose stderr can be lost when the CLI exits right after answering.
    const hooks = join(dir, 'hooks.mjs');
    const list = join(dir, 'loaded.txt');
    writeFileSync(
      hooks,
      `import { appendFileSync } from 'node:fs';\nexport async function load(url, c, next) { appendFileSync(${JSON.stringify(list)}, url + '\\n'); return next(url, c); }\n`,
    );
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
    );
    const r = spawnSync(
      process.execPath,
      ['--import', register, join(ROOT, 'bin', 'tapedeck.js'), 'search', '--json', 'anything'],
      { env: { HOME: dir, TAPEDECK_HOME: join(dir, 'td'), PATH: process.env.PATH ?? '' }, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).hits, []);
    const loaded = readFileSync(list, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('file:'));
    // Node loads modules by their real path: the checkout may sit behind a symlink.
    const ours = loaded.filter((u) => u.startsWith(pathToFileURL(realpathSync(ROOT)).href));
    assert.ok(
      ours.some((u) => u.includes('/dist/bundle/')),
      `runs the bundle; loaded: ${loaded.join(' ')}`,
    );
    // A handful of chunks (the unbundled CLI loaded 207 modules for a search).
    assert.ok(ours.length <= 30, `${ours.length} modules: ${ours.join(' ')}`);
    for (const u of loaded) assert.doesNotMatch(u, /node_modules\/(pg|hono|@modelcontextprotocol|zod)\//, u);
    for (const u of ours) {
      const text = readFileSync(new URL(u), 'utf8');
      assert.doesNotMatch(
        text,
        /CREATE EXTENSION|MIGRATION_LOCK|createPgTranscriptStore/,
        `${u} holds PostgreSQL code`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * The built CLI parses a first index in a worker thread (ingest/parse-offload.ts); the sources run
 * under tsx index inline. Both must store exactly the same thing: every step, thread, cursor
 * (offset, line, parser state) and issue, on the four agents' real layouts (the bench corpus).
 * Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { generateCorpus } from '../bench/generate.js';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { createIndexer } from '../src/ingest/indexer.js';
import type { SpawnParseWorker } from '../src/ingest/parse-offload.js';
import type { TranscriptStore } from '../src/ports/transcript-store.js';
import { ADAPTERS } from '../src/sources/registry.js';
import { createFileArchive } from '../src/storage/archive/file-archive.js';
import { tapedeck } from './support/cli.js';

let root: string;
let home: string;
before(async () => {
  root = mkdtempSync(join(tmpdir(), 'tapedeck-parse-worker-'));
  home = join(root, 'home');
  await generateCorpus({ out: home, steps: 3000, seed: 5 });
});
after(() => rmSync(root, { recursive: true, force: true }));

const QUERIES = {
  steps:
    'SELECT t.id, s.step, s.role, s.kind, s.text, s.tool, s.target, s.ts, s.line, s.idents, s.hash FROM steps s JOIN threads t USING (tid) ORDER BY t.id, s.step',
  threads:
    'SELECT id, agent, session_id, project, title, started_at, updated_at, source, parent_id, step_count FROM threads ORDER BY id',
  cursors: 'SELECT path, agent, thread_id, size, offset, line_no, head_hash, state FROM files ORDER BY path',
  issues: 'SELECT path, line, message FROM issues ORDER BY path, line, message',
  // Row ids follow the order files were written in, which the worker may change: compare steps.
  fts: "SELECT t.id, s.step FROM steps_fts JOIN steps s ON s.id = steps_fts.rowid JOIN threads t USING (tid) WHERE steps_fts MATCH 'checkout OR migration OR error' ORDER BY t.id, s.step",
};

function contents(db: string) {
  const d = new Database(db, { readonly: true });
  try {
    return Object.fromEntries(Object.entries(QUERIES).map(([k, sql]) => [k, d.prepare(sql).all()]));
  } finally {
    d.close();
  }
}

function inline(db: string, full = false, env: Record<string, string> = {}) {
  const engine = createEngine(loadConfig({ db }, { HOME: home, ...env }));
  assert.equal(engine.indexer !== undefined, true);
  try {
    return engine.transcripts.index({ full });
  } finally {
    engine.close();
  }
}

function viaCli(db: string, args: string[] = [], env: Record<string, string> = {}) {
  const r = tapedeck(['index', '--json', '--db', db, ...args], {
    HOME: home,
    PATH: process.env.PATH ?? '',
    ...env,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.json();
}

it('a first index through the worker stores what the inline index stores', () => {
  const a = join(root, 'inline.db');
  const b = join(root, 'worker.db');
  const x = inline(a);
  const y = viaCli(b);
  assert.ok(x.steps.written > 2500, `${x.steps.written} steps`);
  assert.deepEqual(y.files, x.files);
  assert.equal(y.steps.written, x.steps.written);
  const ca = contents(a);
  const cb = contents(b);
  for (const k of Object.keys(QUERIES)) assert.deepEqual(cb[k], ca[k], k);
  assert.ok((ca.fts as unknown[]).length > 0);

  // Grown files resume from their cursors (inline: too few to start the worker), and a forced
  // re-read (--full, through the worker) changes nothing.
  const claude = join(home, '.claude', 'projects');
  const project = readdirSync(claude)[0];
  const file = join(claude, project, readdirSync(join(claude, project))[0]);
  appendFileSync(
    file,
    `${JSON.stringify({ type: 'user', sessionId: 'x', uuid: 'u-appended', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'an appended question about zebra migrations' } })}\n`,
  );
  inline(a);
  viaCli(b);
  assert.deepEqual(contents(b), contents(a));
  viaCli(b, ['--full']);
  assert.deepEqual(contents(b), contents(a));
});

/** Every file under an archive folder: blobs by their bytes, manifests without their times. */
function archiveFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    let text: string;
    try {
      text = readFileSync(join(dir, rel)).toString('base64');
    } catch {
      continue; // a folder
    }
    if (rel.startsWith('files/')) {
      const m = JSON.parse(Buffer.from(text, 'base64').toString('utf8'));
      for (const g of m.generations) {
        delete g.startedAt;
        delete g.updatedAt;
      }
      text = JSON.stringify(m);
    }
    out[rel] = text;
  }
  return out;
}

const transcripts = (db: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT path FROM files ORDER BY path').all() as { path: string }[]).map((r) => r.path);
  } finally {
    d.close();
  }
};

it('a first index through the workers archives every transcript byte for byte, as the inline index does', () => {
  const inlineHome = join(root, 'archive-inline');
  const workerHome = join(root, 'archive-worker');
  inline(join(root, 'a-inline.db'), false, { TAPEDECK_HOME: inlineHome });
  const db = join(root, 'a-worker.db');
  viaCli(db, [], { TAPEDECK_HOME: workerHome });
  const paths = transcripts(db);
  assert.ok(paths.length > 8, `${paths.length} transcripts`);
  const archive = createFileArchive(join(workerHome, 'archive'));
  for (const p of paths) assert.ok(archive.read(p).equals(readFileSync(p)), p);
  assert.deepEqual(archiveFiles(join(workerHome, 'archive')), archiveFiles(join(inlineHome, 'archive')));
});

it('a capture the archive worker cannot write is reported for each file, and every step is still indexed', () => {
  const workerHome = join(root, 'archive-broken');
  // A file where the archive's manifest folder should be: every capture fails.
  mkdirSync(join(workerHome, 'archive'), { recursive: true });
  writeFileSync(join(workerHome, 'archive', 'files'), 'not a folder');
  const good = viaCli(join(root, 'b-good.db'), [], { TAPEDECK_HOME: join(root, 'archive-good') });
  const db = join(root, 'b-broken.db');
  const broken = viaCli(db, [], { TAPEDECK_HOME: workerHome });
  assert.equal(broken.steps.written, good.steps.written);
  const d = new Database(db, { readonly: true });
  try {
    const issues = d
      .prepare("SELECT path, message FROM issues WHERE message LIKE 'not archived:%'")
      .all() as {
      path: string;
      message: string;
    }[];
    assert.deepEqual(issues.map((i) => i.path).sort(), transcripts(db));
    assert.match(issues[0].message, /^not archived: \S/);
  } finally {
    d.close();
  }
});

/**
 * A first index with the built workers, the archive worker's captures delayed by `delayMs`, in
 * batches of 50 steps; every commit checks that each cursor saying its file is indexed to its
 * size has the file's copy in the archive already.
 */
async function indexWithArchiveDelay(name: string, delayMs: number) {
  const { Worker } = await import('node:worker_threads');
  const dist = pathToFileURL(join(import.meta.dirname, '..', 'dist')).href;
  const delayedArchive = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { serveArchiveWorker } = await import(workerData.dist + '/ingest/archive-worker.js');
      const { createFileArchive } = await import(workerData.dist + '/storage/archive/file-archive.js');
      const archive = createFileArchive(workerData.archiveDir);
      const capture = archive.capture;
      archive.capture = (...a) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.delayMs); capture(...a); };
      serveArchiveWorker(parentPort, workerData, archive);
    })();`;
  const spawn: SpawnParseWorker = (data, transfer) =>
    'archiveDir' in data
      ? new Worker(delayedArchive, {
          eval: true,
          workerData: { ...data, dist, delayMs },
          transferList: transfer,
        })
      : new Worker(new URL(`${dist}/app/parse-worker.js`), { workerData: data, transferList: transfer });
  const tapedeckHome = join(root, `archive-${name}`);
  const engine = createEngine(
    loadConfig({ db: join(root, `${name}.db`) }, { HOME: home, TAPEDECK_HOME: tapedeckHome }),
  );
  try {
    const archive = createFileArchive(join(tapedeckHome, 'archive'));
    let finals = 0;
    const early: string[] = [];
    const store = new Proxy(engine.store, {
      get(target, key) {
        if (key === 'write')
          return (fn: Parameters<TranscriptStore['write']>[0]) => {
            target.write(fn);
            for (const c of target.listCursors()) {
              if (c.size !== statSync(c.path).size) continue;
              finals++;
              if (archive.entry(c.path)?.size !== c.size) early.push(c.path);
            }
          };
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const indexer = createIndexer({
      store,
      adapters: ADAPTERS,
      env: engine.locateEnv,
      spawnParseWorker: spawn,
      archive,
      batchSteps: 50, // many commits while captures are still under way
    });
    const summary = indexer.run();
    return { summary, finals, early, steps: engine.store.stats().steps };
  } finally {
    engine.close();
  }
}

it("a file's last cursor commits only after the (slow) archive worker has copied it", async () => {
  const { summary, finals, early } = await indexWithArchiveDelay('slow', 100);
  assert.ok(summary.files.new > 8 && finals > 0, `${summary.files.new} files, ${finals} checks`);
  assert.deepEqual(early, []);
});

it('a fast archive worker never closes a file the main thread is still reading', async () => {
  // The archive answers while the main thread is still reading the same file (a commit between
  // its chunks takes the answers): the descriptor must stay open until both are done with it.
  const { summary, early, steps } = await indexWithArchiveDelay('fast', 0);
  assert.deepEqual(summary.skipped, []);
  assert.equal(summary.files.skipped, 0);
  assert.equal(steps, summary.steps.written);
  assert.ok(steps > 2500, `${steps} steps`);
  assert.deepEqual(early, []);
});

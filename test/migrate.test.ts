/**
 * `tapedeck migrate --to …`: a local SQLite store (indexed transcripts and every kind of knowledge)
 * copied into a PostgreSQL server or another file. Searches agree afterwards, a second run
 * changes nothing, and a run that stops half way resumes without duplicates.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { migrateStore } from '../src/services/migration.js';
import { BACKENDS, freshSchema } from './support/backends.js';
import { tapedeck } from './support/cli.js';
import { claudeLine, claudePath, tempHome } from './support/home.js';
import { populate } from './support/knowledge-fixture.js';
import { snapshot } from './support/snapshot.js';

/** A source home: three indexed Claude sessions plus the knowledge fixture. */
async function sourceHome() {
  const h = tempHome();
  for (let i = 0; i < 3; i++) {
    const id = `9b9b9b9b-0000-4000-8000-00000000000${i}`;
    h.write(
      claudePath(id),
      [
        claudeLine(id, 'user', `Session ${i}: why does the ledger reconcile job time out on batch ${i}?`),
        claudeLine(
          id,
          'assistant',
          `Batch ${i} holds a lock on ledger_entries; we moved reconcileLedger to a queue.`,
        ),
      ].join('\n') + '\n',
    );
  }
  const e = h.engine();
  e.transcripts.index();
  await populate(e);
  e.close();
  return h;
}

/** A target of each kind: another SQLite file, and a fresh PostgreSQL schema. */
function target(kind: 'sqlite' | 'postgres'): { to: string; cleanup(): void } {
  if (kind === 'postgres') {
    const s = freshSchema();
    return { to: s.url, cleanup: s.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-target-'));
  return { to: join(dir, 'team.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

for (const b of BACKENDS) {
  test(`migrate copies transcripts and knowledge into ${b.name}; a second run changes nothing`, {
    skip: b.skip,
  }, async () => {
    const h = await sourceHome();
    const t = target(b.name);
    after(async () => {
      h.cleanup();
      t.cleanup();
    });
    const first = tapedeck(['migrate', '--to', t.to, '--json'], h.env);
    assert.equal(first.status, 0, first.stderr);
    const r = first.json();
    assert.equal(r.copied, 3);
    assert.equal(r.steps, 6);
    assert.equal(r.knowledge.conflicts.length, 0);
    assert.ok(Object.values(r.knowledge.created as Record<string, number>).some((n) => n > 0));
    assert.doesNotMatch(first.stdout + first.stderr, /postgres:\/\/[^@\s]*:[^@\s*]+@/, 'no password printed');

    // The same questions get the same answers from the copy.
    const there = { ...h.env, [b.name === 'postgres' ? 'TAPEDECK_DATABASE_URL' : 'TAPEDECK_DB']: t.to };
    const ask = (env: Record<string, string>, args: string[]) => {
      const out = tapedeck([...args, '--json'], env);
      assert.equal(out.status, 0, out.stderr);
      return JSON.parse(JSON.stringify(out.json(), (k, v) => (k === 'took_ms' ? undefined : v)));
    };
    const q = ['search', 'ledger reconcile lock', '--no-index'];
    const threads = (env: Record<string, string>, args: string[]) =>
      ask(env, args).hits.map((x: { thread: string }) => x.thread);
    // Equally good hits may tie in another order; the set is the same.
    assert.deepEqual(threads(there, q).sort(), threads(h.env, q).sort());
    const one = ['search', 'ledger reconcile batch 2', '--no-index'];
    assert.equal(threads(there, one)[0], threads(h.env, one)[0]);
    assert.match(threads(there, one)[0], /0002$/);
    assert.ok(ask(there, q).hits.length >= 3);
    assert.deepEqual(
      ask(there, ['memory', 'list', '--all-spaces']),
      ask(h.env, ['memory', 'list', '--all-spaces']),
    );
    assert.deepEqual(
      ask(there, ['rules', 'list', '--all-spaces']),
      ask(h.env, ['rules', 'list', '--all-spaces']),
    );

    // Everything the knowledge export holds is identical on both sides.
    const exA = join(h.home, 'ex-a');
    const exB = join(h.home, 'ex-b');
    assert.equal(tapedeck(['export', exA, '--all-spaces'], h.env).status, 0);
    const exportThere = tapedeck(['export', exB, '--all-spaces'], there);
    assert.equal(exportThere.status, 0, exportThere.stderr);
    assert.deepEqual(snapshot(exB), snapshot(exA));

    const again = tapedeck(['migrate', '--to', t.to, '--json'], h.env).json();
    assert.equal(again.copied, 0);
    assert.equal(again.skipped, 3);
    assert.equal(
      Object.values(again.knowledge.created as Record<string, number>).reduce((a, n) => a + n, 0),
      0,
    );
  });

  test(`a migration into ${b.name} that stops half way resumes where it stopped`, {
    skip: b.skip,
  }, async () => {
    const h = await sourceHome();
    const t = target(b.name);
    after(async () => {
      h.cleanup();
      t.cleanup();
    });
    const config = loadConfig({}, h.env);
    const open = () => {
      const source = createEngine(config, { readonly: true });
      const dest = createEngine(
        b.name === 'postgres' ? { ...config, databaseUrl: t.to } : { ...config, dbPath: t.to },
      );
      return {
        source,
        dest,
        run: (stopAfter = Infinity) =>
          migrateStore(
            { transcripts: source.store, portability: source.portability },
            { transcripts: dest.store, portability: dest.portability },
            (p) => {
              if (p.copied >= stopAfter) throw new Error('interrupted');
            },
          ),
        close() {
          source.close();
          dest.close();
        },
      };
    };
    // The progress callback fires after the transcripts are copied: stop there, before the knowledge.
    const one = open();
    await assert.rejects(() => one.run(0), /interrupted/);
    assert.equal(one.dest.store.stats().threads, 3, 'the threads copied before the stop are kept');
    assert.equal(one.dest.memories.list({ allSpaces: true }).memories.length, 0, 'no knowledge yet');
    one.close();
    const two = open();
    try {
      const r = await two.run();
      assert.equal(r.copied, 0, 'threads already copied are not copied again');
      assert.equal(r.skipped, 3);
      assert.ok(
        Object.values(r.knowledge.created).some((n) => n > 0),
        'the knowledge follows',
      );
      const [src, dst] = [two.source.store.stats(), two.dest.store.stats()];
      assert.equal(dst.threads, src.threads, 'indexed and saved threads all there, once');
      assert.equal(dst.steps, src.steps);
      assert.deepEqual(
        two.dest.memories
          .list({ allSpaces: true })
          .memories.map((m) => m.id)
          .sort(),
        two.source.memories
          .list({ allSpaces: true })
          .memories.map((m) => m.id)
          .sort(),
      );
    } finally {
      two.close();
    }
  });
}

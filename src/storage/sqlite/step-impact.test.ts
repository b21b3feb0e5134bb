/**
 * step-impact.ts reads FTS5's own docsize rows: a step's kind and length must come out of the
 * real table as the store writes it (a change of the FTS columns' order would otherwise rank
 * tool output as prompts, silently), and the order must favour a prompt over tool output and a
 * short step over a long one, as FTS5's bm25 column weights did.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Step, StepKind } from '../../core/types.js';
import { DEFAULT_POLICY, prepareStep } from '../../ingest/prepare-step.js';
import { openDatabase } from './open.js';
import { kindAndSize, stepImpact } from './step-impact.js';
import { createSqliteTranscriptStore } from './transcript-store.js';

const KINDS: [StepKind, Step['role']][] = [
  ['prompt', 'user'],
  ['response', 'assistant'],
  ['reasoning', 'assistant'],
  ['tool_call', 'assistant'],
  ['tool_result', 'tool'],
];

test('kind and length come out of the docsize row the store wrote, and order steps as bm25 weighted them', () => {
  const db = openDatabase(':memory:');
  const store = createSqliteTranscriptStore(db, ':memory:');
  const texts = ['alpha beta gamma', 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'];
  store.write((w) => {
    w.upsertThread({
      id: 'claude-code:t',
      agent: 'claude-code',
      sessionId: 't',
      project: '/p',
      title: 't',
      source: '/t.jsonl',
    });
    let n = 0;
    for (const text of texts)
      for (const [kind, role] of KINDS) {
        const s: Step = {
          step: n,
          role,
          kind,
          text,
          source: { path: '/t.jsonl', line: n + 1 },
        };
        w.upsertStep('claude-code:t', prepareStep(s, DEFAULT_POLICY)!);
        n++;
      }
  });
  const rows = db
    .prepare<[], { kind: StepKind; text: string; sz: Uint8Array }>(
      'SELECT s.kind, s.text, d.sz FROM steps s JOIN steps_fts_docsize d ON d.id = s.id ORDER BY s.step',
    )
    .all();
  assert.equal(rows.length, texts.length * KINDS.length);
  const worth = new Map<string, number>();
  for (const r of rows) {
    const { column, size } = kindAndSize(r.sz);
    assert.equal(
      column,
      KINDS.findIndex(([k]) => k === r.kind),
      `${r.kind} is read from its own column`,
    );
    assert.equal(size, r.text.split(' ').length, `${r.kind}: its token count`);
    worth.set(`${r.kind}:${size}`, stepImpact(r.sz, 5));
  }
  const short = (k: StepKind) => worth.get(`${k}:3`)!;
  assert.ok(short('prompt') > short('response') && short('response') > short('tool_call'));
  assert.ok(short('tool_call') > short('reasoning') && short('reasoning') > short('tool_result'));
  assert.ok(worth.get('prompt:3')! > worth.get('prompt:12')!, 'a shorter step is worth more');
  assert.deepEqual(kindAndSize(null), { column: -1, size: 0 });
  store.close();
});

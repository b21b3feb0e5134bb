/**
 * Memories through the service over a real SQLite file: what the backend contract
 * (test/contract/memories.test.ts, which runs dedup, lifecycle, search, redaction and update on every
 * backend) does not cover — input validation and provenance against a really indexed transcript.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { claudeLine, claudePath, tempHome } from './support/home.js';
import { memoryLab } from './support/memories.js';

test('bad input is refused with INVALID_INPUT naming the problem, and nothing is written', () => {
  const lab = memoryLab();
  after(lab.cleanup);
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ content: '   ' }, /content is empty/],
    [{ content: 'x'.repeat(20_001) }, /20,001 characters; the limit is 20,000/],
    [{ content: 'ok', importance: 1.5 }, /importance must be a number from 0 to 1/],
    [{ content: 'ok', importance: 'high' }, /importance/],
    [{ content: 'ok', confidence: -0.1 }, /confidence/],
    [{ content: 'ok', type: 'opinion' }, /Unknown memory type "opinion"; known: fact, preference/],
    [{ content: 'ok', eventStart: 'next tuesday' }, /event start: Cannot read the date/],
    [{ content: 'ok', eventStart: '2026-05-02', eventEnd: '2026-05-01' }, /ends before it starts/],
    [{ content: 'ok', labels: ['has space'] }, /Invalid label "has space"/],
    [{ content: 'ok', project: 'relative/dir' }, /absolute directory/],
    [{ content: 'ok', steps: '1-2' }, /needs a thread/],
    [{ content: 'ok', space: 'Bad' }, /Invalid space "Bad"/],
  ];
  for (const [input, message] of bad)
    assert.throws(
      () => lab.memories.add(input as never),
      (e: { code?: string; message?: string }) => {
        assert.equal(e.code, 'INVALID_INPUT', JSON.stringify(input).slice(0, 80));
        assert.match(e.message ?? '', message);
        return true;
      },
    );
  assert.equal(lab.memories.list({ status: 'all', allSpaces: true }).memories.length, 0);
  assert.throws(() => lab.memories.search('ok', { asOf: 'soon' }), /as-of: Cannot read the date "soon"/);
  assert.throws(() => lab.memories.search(''), { code: 'INVALID_INPUT' });
  assert.throws(() => lab.memories.get('nope'), { code: 'NOT_FOUND' });
  const m = lab.memories.add({ content: 'ok then' });
  assert.throws(() => lab.memories.update(m.id, {}), /Nothing to update/);
  assert.throws(() => lab.memories.update(m.id, { steps: 'x-y', thread: 't' }), { code: 'INVALID_INPUT' });
});

test('provenance: threads are checked against the transcript store; links resolve', () => {
  const h = tempHome();
  after(h.cleanup);
  const sid = '7a7a7a7a-1111-4222-8333-444444444444';
  h.write(
    claudePath(sid),
    `${[claudeLine(sid, 'user', 'Which queue do we use?'), claudeLine(sid, 'assistant', 'We decided on SQS over RabbitMQ.')].join('\n')}\n`,
  );
  const engine = h.engine();
  after(() => engine.close());
  engine.transcripts.index();
  const thread = `claude-code:${sid}`;
  const m = engine.memories.add({
    content: 'We use SQS, not RabbitMQ, for background jobs',
    type: 'decision',
    thread,
    steps: '0-1',
  });
  assert.deepEqual(m.provenance, {
    thread,
    step_from: 0,
    step_to: 1,
    link: `tapedeck://thread/${thread}#0`,
    source: null,
  });
  assert.equal(m.link, `tapedeck://memory/${m.id}`);
  assert.equal(engine.memories.get(`tapedeck://memory/${m.id}`).id, m.id);
  const fromLink = engine.memories.add({
    content: 'SQS queues are created by Terraform',
    thread: `tapedeck://thread/${thread}#1`,
  });
  assert.equal(fromLink.provenance?.step_from, 1);
  assert.throws(() => engine.memories.add({ content: 'x y z', thread: 'claude-code:nope' }), {
    code: 'NOT_FOUND',
  });
  assert.throws(() => engine.memories.add({ content: 'x y z', thread, steps: '50-60' }), {
    code: 'NOT_FOUND',
  });
  assert.throws(() => engine.memories.add({ content: 'x y z', thread, steps: '3-1' }), {
    code: 'INVALID_INPUT',
  });
  const file = engine.memories.add({
    content: 'Runbook for SQS dead letters',
    source: 'docs/runbooks/sqs.md',
  });
  assert.deepEqual(file.provenance, {
    thread: null,
    step_from: null,
    step_to: null,
    link: null,
    source: 'docs/runbooks/sqs.md',
  });
});

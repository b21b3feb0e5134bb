import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateCorpus, type Manifest, type QuestionRecord } from './generate.js';

const LAYOUTS: Record<string, RegExp> = {
  antigravity:
    /^\.gemini\/antigravity\/brain\/[0-9a-f-]{36}\/\.system_generated\/logs\/transcript_full\.jsonl$/,
  'claude-code': /^\.claude\/projects\/-home-dev-[^/]+\/[0-9a-f-]{36}\.jsonl$/,
  codex:
    /^\.codex\/sessions\/\d{4}\/\d{2}\/\d{2}\/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-f-]{36}\.jsonl$/,
  'gemini-cli':
    /^\.gemini\/tmp\/[0-9a-f]{64}\/chats\/session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[0-9a-f]{8}\.jsonl?$/,
};

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

describe('bench corpus generator', () => {
  let tmp: string;
  let a: string;
  let manifest: Manifest;
  let files: string[];

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'tapedeck-corpus-'));
    a = join(tmp, 'a');
    manifest = await generateCorpus({ out: a, steps: 2000, seed: 11 });
    files = walk(a).map((f) => relative(a, f));
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes the requested steps, split evenly across the four agents', () => {
    assert.equal(manifest.steps, 2000);
    const agents = Object.values(manifest.perAgent);
    assert.equal(agents.length, 4);
    assert.equal(
      agents.reduce((n, s) => n + s.steps, 0),
      2000,
    );
    for (const s of agents) {
      assert.equal(s.steps, 500);
      assert.ok(s.sessions >= 2 && s.sessions <= 25, `sessions ${s.sessions}`);
    }
    assert.equal(
      manifest.sessions,
      agents.reduce((n, s) => n + s.sessions, 0),
    );
    assert.equal(
      manifest.files,
      files.length - 2,
      'every file but questions.jsonl and manifest.json is counted',
    );
  });

  it('lays sessions out where each agent keeps them', () => {
    for (const [agent, re] of Object.entries(LAYOUTS)) {
      const found = files.filter((f) => re.test(f)).length;
      assert.equal(found, manifest.perAgent[agent as keyof Manifest['perAgent']].sessions, agent);
    }
  });

  it('writes valid JSON on every line of every transcript, in each agent shape', () => {
    let lines = 0;
    for (const rel of files) {
      const text = readFileSync(join(a, rel), 'utf8');
      if (rel.endsWith('.jsonl')) {
        assert.ok(text.endsWith('\n'), rel);
        for (const line of text.slice(0, -1).split('\n')) {
          const v = JSON.parse(line) as Record<string, unknown>;
          lines++;
          if (LAYOUTS.antigravity.test(rel)) assert.equal(typeof v.step_index, 'number');
          if (LAYOUTS.codex.test(rel)) assert.ok(v.timestamp && v.type && v.payload, line.slice(0, 80));
          if (LAYOUTS['claude-code'].test(rel)) assert.equal(typeof v.type, 'string');
        }
      } else if (rel.endsWith('.json')) {
        const v = JSON.parse(text) as Record<string, unknown>;
        if (LAYOUTS['gemini-cli'].test(rel)) {
          assert.equal(typeof v.sessionId, 'string');
          assert.ok(Array.isArray(v.messages) && v.messages.length > 0);
        }
      }
    }
    assert.ok(lines > 2000);
  });

  it('plants needles at the stated lines, one per session, across agents', () => {
    const qs = readFileSync(join(a, 'questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as QuestionRecord);
    assert.equal(qs.length, manifest.questions);
    assert.ok(qs.length >= 4, `only ${qs.length} questions`);
    assert.equal(new Set(qs.map((q) => q.agent)).size, 4);
    assert.equal(new Set(qs.map((q) => q.sessionId)).size, qs.length);
    for (const q of qs) {
      assert.ok(q.file.startsWith(a), q.file);
      const lines = readFileSync(q.file, 'utf8').split('\n');
      const line = lines[q.line - 1];
      assert.ok(
        line.includes(JSON.stringify(q.answer).slice(1, -1)),
        `${q.id}: answer not on line ${q.line}`,
      );
      assert.ok(
        line.includes(q.sessionId) || q.file.includes(q.sessionId.slice(0, 8)),
        `${q.id}: session id`,
      );
      assert.notEqual(q.question.toLowerCase(), q.answer.toLowerCase());
      assert.ok(q.kind === 'question' || q.kind === 'keyword');
      // The answer is stated exactly once in the whole corpus.
      const hits = files.filter(
        (f) =>
          f !== 'questions.jsonl' &&
          readFileSync(join(a, f), 'utf8').includes(JSON.stringify(q.answer).slice(1, -1)),
      );
      assert.equal(hits.length, 1, `${q.id} found in ${hits.length} files`);
    }
  });

  it('is deterministic for a seed and differs across seeds', async () => {
    const b = join(tmp, 'b');
    const m2 = await generateCorpus({ out: b, steps: 2000, seed: 11 });
    assert.deepEqual(m2, manifest);
    const filesB = walk(b).map((f) => relative(b, f));
    assert.deepEqual(filesB.sort(), [...files].sort());
    for (const rel of files) {
      const x = readFileSync(join(a, rel), 'utf8');
      const y = readFileSync(join(b, rel), 'utf8');
      assert.equal(rel === 'questions.jsonl' ? y.replaceAll(b, a) : y, x, rel);
    }
    const c = join(tmp, 'c');
    const m3 = await generateCorpus({ out: c, steps: 2000, seed: 12 });
    assert.notDeepEqual(
      walk(c)
        .map((f) => relative(c, f))
        .sort(),
      [...files].sort(),
    );
    assert.equal(m3.steps, 2000);
  });

  it('refuses to write into a non-empty directory', async () => {
    await assert.rejects(generateCorpus({ out: a, steps: 100 }), /not empty/);
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { porterStem } from '../../src/core/porter.js';
import { baselineWords, parseQuestionFile } from '../../src/core/scorecard.js';
import type { QuestionLine } from './builder.js';
import { type EvalCorpusSummary, generateEvalCorpus, KINDS } from './generate.js';

const read = (file: string): QuestionLine[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('eval corpus generator', () => {
  let tmp: string;
  let a: EvalCorpusSummary;
  let b: EvalCorpusSummary;
  let c: EvalCorpusSummary;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'tapedeck-evalgen-'));
    a = await generateEvalCorpus({ out: join(tmp, 'a', 'home'), seed: 5, background: 1000 });
    b = await generateEvalCorpus({ out: join(tmp, 'b', 'home'), seed: 5, background: 1000 });
    c = await generateEvalCorpus({ out: join(tmp, 'c', 'home'), seed: 6, background: 1000 });
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes every kind with at least 60 questions the scorecard can read', () => {
    for (const k of KINDS) {
      assert.ok(a.questions[k] >= 60, `${k}: ${a.questions[k]}`);
      assert.equal(parseQuestionFile(readFileSync(a.sets[k], 'utf8')).length, a.questions[k]);
    }
  });

  it('is deterministic for a seed and different for another seed', () => {
    for (const k of KINDS) {
      assert.equal(readFileSync(a.sets[k], 'utf8'), readFileSync(b.sets[k], 'utf8'), k);
      assert.notEqual(readFileSync(a.sets[k], 'utf8'), readFileSync(c.sets[k], 'utf8'), k);
    }
  });

  it('points every evidence item at a user or assistant line of a Claude Code transcript', () => {
    const home = join(tmp, 'a', 'home');
    const cache = new Map<string, string[]>();
    for (const k of KINDS)
      for (const q of read(a.sets[k]))
        for (const e of q.evidence) {
          const [, file, line] = /^(.+):(\d+)$/.exec(e) ?? [];
          if (!cache.has(file)) cache.set(file, readFileSync(join(home, file), 'utf8').split('\n'));
          const rec = JSON.parse(cache.get(file)?.[Number(line) - 1] ?? 'null');
          assert.ok(rec && (rec.type === 'user' || rec.type === 'assistant'), `${q.id}: ${e}`);
        }
  });

  it('answer-after evidence shares no word with its question; dated questions are asked after their day', () => {
    const home = join(tmp, 'a', 'home');
    const lineAt = (e: string) => {
      const [, file, line] = /^(.+):(\d+)$/.exec(e) ?? [];
      return JSON.parse(readFileSync(join(home, file), 'utf8').split('\n')[Number(line) - 1]);
    };
    for (const q of read(a.sets['answer-after'])) {
      const rec = lineAt(q.evidence[0]);
      const answer = new Set(baselineWords(rec.message.content[0].text).map(porterStem));
      const shared = baselineWords(q.question).filter((w) => answer.has(porterStem(w)));
      assert.deepEqual(shared, [], `${q.id}: ${q.question}`);
    }
    const days = { yesterday: 1, 'two days ago': 2, 'last week': 7 } as Record<string, number>;
    for (const q of read(a.sets.dated)) {
      const at = Date.parse(lineAt(q.evidence[0]).timestamp.slice(0, 10));
      const asked = Date.parse(q.date ?? '');
      const phrase = Object.keys(days).find((p) => q.question.includes(p));
      if (phrase) assert.equal((asked - at) / 86_400_000, days[phrase], `${q.id}: ${q.question}`);
      else assert.ok(asked > at, q.id);
    }
  });
});

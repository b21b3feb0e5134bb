/**
 * The second hand-written held-out set (eval/handwritten2): its committed transcripts and questions
 * are what the builder writes, and once the real CLI indexes them every question's evidence line is
 * an indexed step — so a parser that starts dropping or misplacing one of these real-shape Codex,
 * Gemini CLI or Antigravity lines fails here, not silently as a lower score. No ranking is checked.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { tapedeck } from './support/cli.js';
import { type TempHome, tempHome } from './support/home.js';

const SET = join(import.meta.dirname, '..', 'eval', 'handwritten2');

interface Thread {
  id: string;
  agent: string;
  project: string | null;
  title: string | null;
  started_at: string;
}

describe('eval/handwritten2', () => {
  let h: TempHome;
  before(() => {
    h = tempHome();
    cpSync(join(SET, 'home'), h.home, { recursive: true });
    const r = tapedeck(['index', '--json'], h.env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json().issues, 0);
  });
  after(() => h.cleanup());

  test('the committed files are what build.mjs writes, and every quote resolves to one line', () => {
    const r = spawnSync(process.execPath, [join(SET, 'build.mjs'), '--check'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  test('each agent’s sessions are indexed with their project and start time', () => {
    const threads: Thread[] = tapedeck(['threads', '--json', '--limit', '100'], h.env).json().threads;
    const count = (agent: string, project: string | null) =>
      threads.filter((t: Thread) => t.agent === agent && t.project === project).length;
    assert.equal(threads.length, 29);
    assert.equal(count('codex', '/home/yusuf/letters/beatrix'), 8);
    assert.equal(count('codex', '/home/mira/src/ledgerline'), 2);
    assert.equal(count('gemini-cli', '/home/saoirse/chats/tomas'), 8);
    assert.equal(count('gemini-cli', '/home/amara/penpals/henrik'), 8);
    // the legacy hash-named folder has no .project_root: its project is the ancestor of the
    // session's tool-call paths whose SHA-256 is the folder's project hash
    assert.equal(count('gemini-cli', '/home/mira/src/pondcam'), 2);
    assert.equal(count('gemini-cli', null), 0);
    assert.equal(count('antigravity', '/home/mira/src/tramboard'), 1);
    const first = threads.find((t: Thread) => t.title?.startsWith('Morning Tomás.'));
    assert.equal(first?.started_at, '2025-10-06T08:20:00.000Z');
  });

  test('every evidence line of every question is an indexed step', () => {
    const threads: Thread[] = tapedeck(['threads', '--json', '--limit', '100'], h.env).json().threads;
    const lines = new Set<string>();
    for (const t of threads) {
      const { steps } = tapedeck(
        ['show', t.id, '--json', '--limit', '200', '--max-chars', '100'],
        h.env,
      ).json();
      for (const s of steps) lines.add(`${s.source.path.slice(h.home.length + 1)}:${s.source.line}`);
    }
    const questions = readFileSync(join(SET, 'questions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.ok(questions.length >= 160);
    const missing = questions.flatMap((q) =>
      q.evidence.filter((e: string) => !lines.has(e)).map((e: string) => `${q.id} ${e}`),
    );
    assert.deepEqual(missing, []);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../core/query.js';
import type { Candidate } from '../ports/transcript-store.js';
import { rankCandidates } from './rank.js';
import { WEIGHTS } from './weights.js';

let rowid = 0;
function step(thread: string, n: number, role: 'user' | 'assistant', text: string): Candidate {
  return {
    rowid: ++rowid,
    threadId: thread,
    agent: 'claude-code',
    project: null,
    title: null,
    threadStartedAt: null,
    threadUpdatedAt: null,
    source: `/t/${thread}.jsonl`,
    step: n,
    role,
    kind: role === 'user' ? 'prompt' : 'response',
    timestamp: null,
    line: n + 1,
    text,
    chars: text.length,
    context: '',
  };
}

const cues = { date: null, role: { role: null, strength: 0, names: [], cueText: null }, why: false } as never;

test('a session holding all the words between its steps beats one holding some of them more often', () => {
  const copy = 'Per-plan limits come from config/plans, enterprise plans get more.';
  const candidates = [
    // B: two strong matches of "per plan limits", never "activity".
    step('b', 0, 'user', 'Add rate limits per plan for the invoice endpoint.'),
    step('b', 20, 'assistant', copy),
    // A: one, and the topic the question names, in another step.
    step('a', 0, 'user', 'The activity export for each user is hammered by one client.'),
    step('a', 20, 'assistant', copy),
  ];
  const query = parseQuery('per plan limits for user activity');
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const { steps, sessions } = rankCandidates(candidates, query, stats, cues, 0);
  assert.ok(sessions.get('a')! > sessions.get('b')!, JSON.stringify([...sessions]));
  // Both copies are hits (the session decides which comes first); the later one shows its discount.
  const copies = steps.filter((s) => s.text === copy);
  assert.deepEqual(
    copies.map((s) => s.threadId),
    ['a', 'b'],
  );
  assert.equal(copies[0]!.parts.copy, 0);
  assert.ok(copies[1]!.parts.copy < 0);
  const sum = (s: (typeof steps)[number]) => Object.values(s.parts).reduce((x, y) => x + y, 0);
  for (const s of steps) assert.ok(Math.abs(sum(s) - s.score) < 1e-9, 'the parts add up to the score');
});

test('a conversation between two named people: greetings are not the words, their sessions are preferred', () => {
  const candidates = [
    // Mei and Nils, one session: small talk that greets Mei again and again.
    step('a', 0, 'user', 'Hey Nils! How was your weekend?'),
    step('a', 1, 'assistant', 'Hi Mei! Pretty quiet, laundry mostly. Hi Mei, sorry, Mei!'),
    // Mei and Nils, another session: the question and Nils's suggestion.
    step('b', 0, 'user', 'Hey Nils! I have been struggling with sleep lately, any tips?'),
    step('b', 1, 'assistant', 'Try no screens for an hour before bed.'),
    // Two other people, the same exchange.
    step('c', 0, 'user', 'Hey Wei! I have been struggling with sleep lately, any tips?'),
    step('c', 1, 'assistant', 'Try no screens for an hour before bed.'),
  ];
  const question = 'What did Nils suggest to Mei for sleep?';
  const query = parseQuery(question);
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const role = { role: undefined, strength: 0, names: ['Nils', 'Mei'] };
  const { steps } = rankCandidates(candidates, query, stats, { date: null, role, why: false }, 0);
  const top = steps[0]!;
  assert.deepEqual(
    [top.threadId, top.step],
    ['b', 1],
    JSON.stringify(steps.map((s) => [s.threadId, s.step, s.score])),
  );
  // "Hi Mei!" says who is spoken to: a turn that only greets holds none of the question's words.
  const greeting = steps.find((s) => s.threadId === 'a' && s.step === 1)!;
  assert.ok(greeting.parts.lexical < 0.001, String(greeting.parts.lexical));
  // The session where Mei and Nils speak beats the same exchange between other people by more
  // than the speaker prior.
  const other = steps.find((s) => s.threadId === 'c' && s.step === 1)!;
  assert.ok(top.parts.role - other.parts.role > WEIGHTS.speaker, JSON.stringify([top.parts, other.parts]));
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery } from '../core/query.js';
import type { Candidate } from '../ports/transcript-store.js';
import { givesReason, rankCandidates } from './rank.js';
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

test("the question's subject is its first person named: their turns get the speaker prior, not the other's", () => {
  // Oscar is greeted by the user ("Hey Oscar!"), so Oscar speaks as the assistant; Camille is
  // greeted by the assistant. Both are named, and the greetings are as many on each side.
  const candidates = [
    step('a', 0, 'user', 'Hey Oscar! I have been struggling with sleep lately, any tips?'),
    step('a', 1, 'assistant', 'Hi Camille! Try no screens for an hour before bed.'),
    step('a', 2, 'user', 'I sleep badly when it is hot.'),
    step('a', 3, 'assistant', 'I sleep well in the cold.'),
  ];
  const question = 'What did Oscar suggest to Camille for sleep?';
  const query = parseQuery(question);
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const role = { role: undefined, strength: 0, names: ['Oscar', 'Camille'] };
  const { steps } = rankCandidates(candidates, query, stats, { date: null, role, why: false }, 0);
  const rolePart = (n: number) => steps.find((s) => s.step === n)!.parts.role;
  assert.ok(rolePart(3) - rolePart(2) >= WEIGHTS.speaker - 1e-9, JSON.stringify(steps.map((s) => s.parts)));
  // Asked the other way round, the user's turns are the subject's.
  const { steps: back } = rankCandidates(
    candidates,
    parseQuery('What did Camille say to Oscar about sleep?'),
    stats,
    { date: null, role: { role: undefined, strength: 0, names: ['Camille', 'Oscar'] }, why: false },
    0,
  );
  const backPart = (n: number) => back.find((s) => s.step === n)!.parts.role;
  assert.ok(backPart(2) - backPart(3) >= WEIGHTS.speaker - 1e-9, JSON.stringify(back.map((s) => s.parts)));
});

test('a place named like a person does not halve the prior for the session where the person is', () => {
  const candidates = [
    step('nils', 0, 'user', 'Hey Nils! How was your week?'),
    step('nils', 1, 'assistant', 'Just got back from Lisbon, the cathedral was unreal.'),
    // Another conversation, the same trip, nobody called Nils.
    step('wei', 0, 'user', 'Hey Wei! How was your week?'),
    step('wei', 1, 'assistant', 'Just got back from Lisbon, the cathedral was unreal.'),
  ];
  const query = parseQuery('When did Nils go to Lisbon?');
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const role = { role: undefined, strength: 0, names: ['Nils', 'Lisbon'] };
  const { steps } = rankCandidates(candidates, query, stats, { date: null, role, why: false }, 0);
  const hit = steps.find((s) => s.threadId === 'nils' && s.step === 1)!;
  // Nils is the only person among the names, and he is in this session: the whole prior.
  assert.ok(hit.parts.role >= WEIGHTS.participants, JSON.stringify(hit.parts));
  assert.equal(steps[0]!.threadId, 'nils');
});

test("a conversation's people count in every session of their home project, not in a work project that names them", () => {
  const at = (c: Candidate, project: string) => ({ ...c, project });
  const candidates = [
    // Session 3 of Nils's conversation holds the answer but no greeting; its greeting is in session 1.
    at(step('chat3', 4, 'assistant', 'The boat needs a new sail before the summer race.'), '/chats/nils'),
    // A work project where a colleague says the same about a boat.
    at(step('work', 2, 'assistant', 'Nils: the boat needs a new sail before the summer race.'), '/work/api'),
  ];
  const sightings = [at(step('chat1', 0, 'user', 'Hey Nils! How was the weekend?'), '/chats/nils')];
  const query = parseQuery('What does the boat of Nils need before the summer race?');
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const role = { role: undefined, strength: 0, names: ['Nils'] };
  const rank = (home: string | null) =>
    rankCandidates(candidates, query, stats, { date: null, role, why: false, sightings, home }, 0).steps;
  const inHome = rank('/chats/nils').find((s) => s.threadId === 'chat3')!;
  assert.ok(inHome.parts.role >= WEIGHTS.participants - 1e-9, JSON.stringify(inHome.parts));
  // Without a home project, a greeting in another session says nothing about this one.
  assert.equal(rank(null).find((s) => s.threadId === 'chat3')!.parts.role, 0);
});

test('a name whose stem is a common word matches the name only', () => {
  // Porter stems "Ines" to "in": as a stem it would match every "in" of a step about something else.
  const candidates = [
    step('a', 0, 'user', 'Ines shared the photos of the trip.'),
    step('b', 0, 'user', 'The photos are in the group chat, in the folder in the drive.'),
  ];
  const query = parseQuery('photos Ines sent');
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const role = { role: undefined, strength: 0, names: ['Ines'] };
  const { steps } = rankCandidates(candidates, query, stats, { date: null, role, why: false }, 0);
  const lexical = (t: string) => steps.find((s) => s.threadId === t)!.parts.lexical;
  assert.ok(lexical('b') < 0.7 * lexical('a'), JSON.stringify(steps.map((s) => [s.threadId, s.parts])));
});

test('a why-question: the step giving the reason comes first in its session, which sessions lead is unchanged', () => {
  const candidates = [
    step('a', 0, 'user', 'Tell me whether we can drop the Redis cache for an in-process LRU.'),
    step(
      'a',
      1,
      'assistant',
      'We replaced Redis with an LRU because invalidation kept serving stale prices.',
    ),
    step('b', 0, 'user', 'The Redis instance needs more memory.'),
  ];
  const query = parseQuery('why did we drop the redis cache');
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const why = { date: null, role: { role: null, strength: 0, names: [] }, why: true } as never;
  const plain = rankCandidates(candidates, query, stats, cues, 0).steps;
  const asked = rankCandidates(candidates, query, stats, why, 0).steps;
  assert.equal(plain[0]!.step, 0, 'without the why-cue the request holding every word leads');
  assert.deepEqual(
    asked.slice(0, 2).map((s) => [s.threadId, s.step]),
    [
      ['a', 1],
      ['a', 0],
    ],
  );
  assert.ok(asked[0]!.parts.reason > 0);
  const best = (steps: typeof plain, t: string) =>
    Math.max(...steps.filter((s) => s.threadId === t).map((s) => s.score));
  assert.ok(
    Math.abs(best(asked, 'a') - best(plain, 'a') - 0.001) < 0.05,
    'the session keeps about its best score',
  );
  const sum = (s: (typeof asked)[number]) => Object.values(s.parts).reduce((x, y) => x + y, 0);
  for (const s of asked) assert.ok(Math.abs(sum(s) - s.score) < 1e-9, 'the parts add up to the score');
  // A reason about something else (beyond reasonReach, or not about the topic) is not promoted.
  const off = WEIGHTS.reasonReach;
  (WEIGHTS as { reasonReach: number }).reasonReach = 2;
  try {
    assert.equal(rankCandidates(candidates, query, stats, why, 0).steps[0]!.step, 0);
  } finally {
    (WEIGHTS as { reasonReach: number }).reasonReach = off;
  }
});

test('a reason counts when its sentence is about the topic', () => {
  const topic = (t: string) => /redis/i.test(t);
  assert.ok(givesReason('Done. We dropped Redis because it served stale prices.', topic));
  assert.ok(!givesReason('We dropped Redis. The tests were slow because of the CI runner.', topic));
  assert.ok(givesReason('Keep the LRU small, otherwise Redis memory\ngrows.', topic));
  assert.ok(!givesReason('Redis is gone.', topic));
});

test("a work session mentioning a colleague is not that person's conversation; a person nobody speaks to is found where talked about", () => {
  const candidates = [
    // The conversation with Marcus: spoken to, but the answer shares no word with the question.
    step('chat', 0, 'user', 'Hi Marcus! How are things?'),
    step('chat', 1, 'assistant', 'Good! I start at Halden on Monday, they made me an offer.'),
    // A work session where the user reports what Marcus said.
    step('work', 0, 'user', 'Marcus says the user export is missing reports, can you check?'),
  ];
  const query = parseQuery('Which company hired Marcus?');
  const stats = { total: 1000, avgChars: 60, df: query.terms.map(() => 20) };
  const role = { role: null, strength: 0, names: ['Marcus'] };
  const { steps } = rankCandidates(candidates, query, stats, { date: null, role, why: false } as never, 0);
  const prior = (t: string) => steps.find((s) => s.threadId === t)!.parts.role;
  assert.ok(prior('chat') > 0.5);
  assert.equal(prior('work'), 0, 'reported speech is not a conversation with Marcus');
  // Lucia is never spoken to: the session whose turn opens with her is where she is discussed.
  const about = [
    step('x', 0, 'user', 'Lucia has started swimming lessons on Saturdays.'),
    step('y', 0, 'user', 'The pool was closed again.'),
  ];
  const q2 = parseQuery('What swimming milestone did Lucia reach?');
  const r2 = rankCandidates(
    about,
    q2,
    { total: 1000, avgChars: 60, df: q2.terms.map(() => 20) },
    {
      date: null,
      role: { role: null, strength: 0, names: ['Lucia'] },
      why: false,
    } as never,
    0,
  );
  assert.ok(r2.steps.find((s) => s.threadId === 'x')!.parts.role > 0);
});

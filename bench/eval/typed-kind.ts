/**
 * The `typed` set: questions as a hurried user types them into a search box — lowercased, no
 * question mark, shop-talk abbreviations ("config", "db", "prod"), filler words dropped, and one
 * slip of the finger in a longer word (two letters swapped, one missing or doubled). Each is
 * derived from a question of another kind (same evidence), so the set asks what the others ask
 * in a different shape: words the index has never seen, and fewer of them.
 */
import { hashSeed, Random } from '../corpus/prng.js';
import type { QuestionLine } from './builder.js';

/** The kinds a typed question is derived from (not the chat conversations: they are not typed). */
const FROM = ['paraphrase', 'answer-after', 'dated', 'who-said-it', 'identifier', 'coding'];

const ABBREVIATIONS: Record<string, string> = {
  configuration: 'config',
  configurable: 'config',
  database: 'db',
  authentication: 'auth',
  environment: 'env',
  production: 'prod',
  staging: 'stg',
  message: 'msg',
  messages: 'msgs',
  request: 'req',
  requests: 'reqs',
  application: 'app',
  repository: 'repo',
  documentation: 'docs',
  dependency: 'dep',
  dependencies: 'deps',
  directory: 'dir',
  parameter: 'param',
  parameters: 'params',
  because: 'bc',
  without: 'w/o',
  please: 'pls',
  you: 'u',
  minutes: 'min',
  seconds: 'sec',
  regression: 'regr',
};
/** Words a hurried user leaves out. */
const DROPPED = new Set(['the', 'a', 'an', 'is', 'are', 'was', 'were', 'do', 'does', 'did', 'of']);

/** Looks like an identifier, a path or a number: typed exactly (pasted, usually). */
const EXACT = /[_./\d]|[a-z][A-Z]|^[A-Z]{2,}/;

/** One slip in a word of six letters or more: two inner letters swapped, one dropped or doubled. */
function slip(word: string, r: Random): string {
  const i = 1 + r.int(word.length - 3);
  switch (r.int(3)) {
    case 0:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    case 1:
      return word.slice(0, i) + word.slice(i + 1);
    default:
      return word.slice(0, i + 1) + word[i] + word.slice(i + 1);
  }
}

/** The question as typed (deterministic for the random stream). */
export function typeQuestion(question: string, r: Random): string {
  const words = question.replace(/[?!]+\s*$/, '').split(/\s+/);
  const out: string[] = [];
  for (const raw of words) {
    if (EXACT.test(raw)) {
      out.push(raw);
      continue;
    }
    const w = raw.toLowerCase();
    const bare = w.replace(/[,;:]$/, '');
    if (DROPPED.has(bare) && r.chance(0.7)) continue;
    out.push(ABBREVIATIONS[bare] ?? w);
  }
  // One slip, in a long plain word (an identifier is pasted, not typed).
  const long = out.map((w, i) => (/^[a-z]{6,}$/.test(w) ? i : -1)).filter((i) => i >= 0);
  if (long.length > 0) {
    const i = r.pick(long);
    out[i] = slip(out[i]!, r);
  }
  return out.join(' ');
}

/** `n` typed questions drawn from the other kinds' shipped lines, ids `typed-001`… */
export function typedSet(sets: Map<string, QuestionLine[]>, seed: number, n: number): QuestionLine[] {
  const r = new Random(hashSeed(seed, 'typed'));
  const pool = FROM.flatMap((k) => sets.get(k) ?? []);
  const picked: QuestionLine[] = [];
  const used = new Set<number>();
  while (picked.length < n && used.size < pool.length) {
    const i = r.int(pool.length);
    if (used.has(i)) continue;
    used.add(i);
    const q = pool[i]!;
    const line: QuestionLine = {
      id: `typed-${String(picked.length + 1).padStart(3, '0')}`,
      kind: 'typed',
      question: typeQuestion(q.question, r),
      evidence: q.evidence,
      date: q.date,
    };
    if (q.project) line.project = q.project;
    picked.push(line);
  }
  return picked;
}

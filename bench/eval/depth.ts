/**
 * Where a missed evidence step is lost, per kind: never read (not among the candidates the index
 * returned), read but ranked below the top 10, or found. And where the right session is: first,
 * among the candidates but not first, or not read at all. Runs the shipped search path in process
 * over a kept eval store (`npm run eval -- --keep` prints where it is), recording what the store
 * returns to search.
 *
 *   node --import tsx bench/eval/depth.ts --keep <dir printed by --keep> [--kinds conversation,dated] [--list]
 * (--list: each evidence step read but ranked below 10, on stderr)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/app/config.js';
import { createEngine } from '../../src/app/engine.js';
import { parseQuery } from '../../src/core/query.js';
import { roleCue } from '../../src/core/question-role.js';
import { type EvidenceRef, parseQuestionFile, pathMatches } from '../../src/core/scorecard.js';
import { createTermMatcher } from '../../src/core/term-match.js';
import type { Candidate, TranscriptStore } from '../../src/ports/transcript-store.js';
import { searchTranscripts } from '../../src/search/search.js';

const { values } = parseArgs({
  options: { keep: { type: 'string' }, kinds: { type: 'string' }, list: { type: 'boolean', default: false } },
});
if (!values.keep) {
  process.stderr.write('usage: depth.ts --keep <dir> [--kinds a,b] [--list]\n');
  process.exit(2);
}
const dir = values.keep;
const kinds = values.kinds?.split(',');
const engine = createEngine(
  loadConfig(
    { db: join(dir, 'tapedeck', 'tapedeck.db') },
    { HOME: join(dir, 'home'), TAPEDECK_HOME: join(dir, 'tapedeck') },
  ),
);
const questions = parseQuestionFile(readFileSync(join(dir, 'all.jsonl'), 'utf8')).filter(
  (q) => !kinds || kinds.includes(q.kind),
);

// The store as search sees it, recording every candidate it hands out.
let read: Candidate[] = [];
const store = engine.store;
const recording: TranscriptStore = Object.create(store, {
  candidates: {
    value: (...args: Parameters<TranscriptStore['candidates']>) => {
      const set = store.candidates(...args);
      read.push(...set.candidates);
      return set;
    },
  },
});

const isEvidence = (e: EvidenceRef, c: { thread: string; step: number; path: string; line: number }) =>
  'file' in e
    ? pathMatches(c.path, e.file) && c.line === e.line
    : e.thread === c.thread && (e.step === undefined || e.step === c.step);

// A step never read: does it hold a word of the question (not a name) in its text, only in its
// neighbour field, or none (a vocabulary gap no ranking can bridge)?
const db = new Database(join(dir, 'tapedeck', 'tapedeck.db'), { readonly: true });
const stepOf = db.prepare<[string, number], { text: string; ctx: string }>(
  "SELECT s.text, s.ctx FROM steps s JOIN threads t ON t.tid = s.tid WHERE t.source LIKE '%' || ? AND s.line = ?",
);
const holds = (question: string, e: EvidenceRef): 'text' | 'ctx' | 'none' => {
  if (!('file' in e)) return 'none';
  const row = stepOf.get(e.file, e.line);
  if (!row) return 'none';
  const names = new Set(roleCue(question).names.map((n) => n.toLowerCase()));
  const parsed = parseQuery(question);
  const query = { ...parsed, terms: parsed.terms.filter((t) => !names.has(t.text)) };
  const match = createTermMatcher(query);
  if (match(row.text).some(Boolean)) return 'text';
  return match(row.ctx).some(Boolean) ? 'ctx' : 'none';
};

type Row = {
  items: number;
  top10: number;
  read: number;
  session1: number;
  sessionRead: number;
  n: number;
  text: number;
  ctx: number;
};
const rows = new Map<string, Row>();
for (const q of questions) {
  read = [];
  const now = q.now ?? Date.now();
  const res = searchTranscripts(recording, q.question, {
    limit: 10,
    now,
    ...(q.project ? { project: q.project } : {}),
  });
  const row = rows.get(q.kind) ?? {
    items: 0,
    top10: 0,
    read: 0,
    session1: 0,
    sessionRead: 0,
    n: 0,
    text: 0,
    ctx: 0,
  };
  rows.set(q.kind, row);
  row.n++;
  const hits = res.hits.map((h) => ({
    thread: h.thread,
    step: h.step,
    path: h.source.path,
    line: h.source.line,
  }));
  const cands = read.map((c) => ({ thread: c.threadId, step: c.step, path: c.source, line: c.line }));
  const evThreads = new Set<string>();
  for (const e of q.evidence) {
    row.items++;
    if (hits.some((h) => isEvidence(e, h))) row.top10++;
    const found = cands.filter((c) => isEvidence(e, c));
    if (found.length > 0) {
      row.read++;
      if (values.list && !hits.some((h) => isEvidence(e, h)))
        process.stderr.write(`read, ranked below 10: ${q.kind} ${q.id} ${q.question}\n`);
    } else {
      const h = holds(q.question, e);
      if (h !== 'none') row[h]++;
    }
    for (const c of found) evThreads.add(c.thread);
    if ('thread' in e) evThreads.add(e.thread);
  }
  // A file's thread is known once any of its steps was read; otherwise the session was not read.
  const first = hits[0];
  if (
    first &&
    q.evidence.some((e) => ('file' in e ? pathMatches(first.path, e.file) : e.thread === first.thread))
  )
    row.session1++;
  const evFiles = q.evidence.flatMap((e) => ('file' in e ? [e.file] : []));
  if (cands.some((c) => evThreads.has(c.thread) || evFiles.some((f) => pathMatches(c.path, f))))
    row.sessionRead++;
}
const f = (x: number, n: number) => (n ? (x / n).toFixed(3) : '-');
process.stdout.write(
  '| kind | n | evidence items | in top 10 | read, ranked below 10 | never read | of which share a word: in text | only in neighbours | session@1 | right session read, not first | right session not read |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
);
for (const [kind, r] of rows)
  process.stdout.write(
    `| ${kind} | ${r.n} | ${r.items} | ${f(r.top10, r.items)} | ${f(r.read - r.top10, r.items)} | ${f(r.items - r.read, r.items)} | ${f(r.text, r.items)} | ${f(r.ctx, r.items)} | ${f(r.session1, r.n)} | ${f(r.sessionRead - r.session1, r.n)} | ${f(r.n - r.sessionRead, r.n)} |\n`,
  );
engine.close();

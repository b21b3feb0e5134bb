/**
 * Retrieval scorecard maths: reading a question file's lines, deciding which hits are evidence,
 * and the figures (hit@k, evidence recall@10, session hit@1, MRR, latency percentiles). Pure, so
 * every figure `tapedeck eval` prints can be checked by hand in a test.
 */
import { invalidInput } from './errors.js';
import { STOP_WORDS } from './stopwords.js';

/** One piece of evidence: a step of a thread, a whole thread, or a transcript line. */
export type EvidenceRef = { thread: string; step?: number } | { file: string; line: number };

export interface EvalQuestion {
  id: string;
  /** Asked exactly as typed. */
  question: string;
  kind: string;
  project?: string;
  /** The "now" the question is asked at (ms since epoch), for "last week" or "yesterday". */
  now?: number;
  evidence: EvidenceRef[];
}

/** What a ranked hit must carry to be judged. */
export interface JudgedHit {
  thread: string;
  step: number;
  source: { path: string; line: number };
}

/** How one question fared for one system. */
export interface Outcome {
  /** 1-based rank of the first hit that is evidence, or null when none is in the list. */
  rank: number | null;
  /** Evidence items found in the top 10. */
  found: number;
  /** Evidence items asked for. */
  total: number;
  /** The first hit is in a thread the evidence is in. */
  sessionFirst: boolean;
  ms: number;
}

export interface Metrics {
  questions: number;
  hit_at_1: number;
  hit_at_5: number;
  hit_at_10: number;
  /** Mean over questions of the share of their evidence items in the top 10. */
  recall_at_10: number;
  session_hit_at_1: number;
  /** Mean reciprocal rank of the first evidence hit in the top 10 (0 when none). */
  mrr: number;
  p50_ms: number;
  p99_ms: number;
}

/** Hits judged per question (the figures stop at 10). */
export const JUDGED = 10;
const DEFAULT_KIND = 'general';

const norm = (p: string) => p.replace(/\\/g, '/');

/**
 * Whether a transcript path is the evidence file: the same path, or a path ending in it at a
 * folder boundary — so shipped question files can name `.claude/projects/x/abc.jsonl` while the
 * corpus lives in a temp home.
 */
export function pathMatches(path: string, file: string): boolean {
  const p = norm(path);
  const f = norm(file).replace(/^\.\//, '');
  return p === f || p.endsWith(`/${f}`);
}

function isEvidence(hit: JudgedHit, e: EvidenceRef): boolean {
  if ('file' in e) return hit.source.line === e.line && pathMatches(hit.source.path, e.file);
  return hit.thread === e.thread && (e.step === undefined || hit.step === e.step);
}

function sameSession(hit: JudgedHit, e: EvidenceRef): boolean {
  return 'file' in e ? pathMatches(hit.source.path, e.file) : hit.thread === e.thread;
}

/** Judge one ranked list against a question's evidence (only the first 10 hits count). */
export function judge(evidence: readonly EvidenceRef[], hits: readonly JudgedHit[], ms: number): Outcome {
  const top = hits.slice(0, JUDGED);
  const index = top.findIndex((h) => evidence.some((e) => isEvidence(h, e)));
  const found = evidence.filter((e) => top.some((h) => isEvidence(h, e))).length;
  const first = top[0];
  return {
    rank: index < 0 ? null : index + 1,
    found,
    total: evidence.length,
    sessionFirst: first !== undefined && evidence.some((e) => sameSession(first, e)),
    ms,
  };
}

/** Nearest-rank percentile (p in 0–100) of some values; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const k = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[k - 1];
}

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The figures over a set of outcomes (rates rounded to 3 places, times to 0.01 ms). */
export function summarize(outcomes: readonly Outcome[]): Metrics {
  const n = outcomes.length;
  const mean = (f: (o: Outcome) => number) =>
    n === 0 ? 0 : round(outcomes.reduce((s, o) => s + f(o), 0) / n);
  const within = (k: number) => (o: Outcome) => (o.rank !== null && o.rank <= k ? 1 : 0);
  const ms = outcomes.map((o) => o.ms);
  return {
    questions: n,
    hit_at_1: mean(within(1)),
    hit_at_5: mean(within(5)),
    hit_at_10: mean(within(10)),
    recall_at_10: mean((o) => (o.total === 0 ? 0 : o.found / o.total)),
    session_hit_at_1: mean((o) => (o.sessionFirst ? 1 : 0)),
    mrr: mean((o) => (o.rank === null ? 0 : 1 / o.rank)),
    p50_ms: round(percentile(ms, 50), 2),
    p99_ms: round(percentile(ms, 99), 2),
  };
}

/**
 * The words of a question for the plain baselines: lowercased letter/digit runs, stop words
 * dropped, each once, in order. Identifiers fall apart into their words, as in a plain FTS5 script.
 */
export function baselineWords(question: string): string[] {
  const out: string[] = [];
  for (const raw of question.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu) ?? []) {
    const word = raw.replace(/’/g, "'").replace(/'s$/, '');
    if (STOP_WORDS.has(word)) continue;
    for (const part of word.split("'")) if (part && !out.includes(part)) out.push(part);
  }
  return out;
}

/** A date-only `date` is asked at noon UTC, so the day is the same in every time zone. */
function parseNow(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidInput(`${where}: "date" must be a string`);
  const s = value.trim();
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T12:00:00Z` : s);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}/.test(s))
    throw invalidInput(`${where}: cannot read the date "${value}" (use YYYY-MM-DD or an ISO time)`);
  return t;
}

const isStepNumber = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;
const isLineNumber = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;

/** `path:line` (the path may itself hold colons, e.g. a Windows drive). */
function fileLine(s: string, where: string): EvidenceRef {
  const m = /^(.+):(\d+)$/.exec(s.trim());
  if (!m || Number(m[2]) < 1) throw invalidInput(`${where}: evidence "${s}" is not file:line`);
  return { file: m[1], line: Number(m[2]) };
}

function evidenceItem(v: unknown, where: string): EvidenceRef {
  if (typeof v === 'string') return fileLine(v, where);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.file === 'string' && isLineNumber(o.line)) return { file: o.file, line: o.line };
    if (typeof o.thread === 'string' && o.thread) {
      if (o.step === undefined) return { thread: o.thread };
      if (isStepNumber(o.step)) return { thread: o.thread, step: o.step };
    }
  }
  throw invalidInput(`${where}: each evidence item is "file:line", {file, line} or {thread, step}`);
}

/**
 * Read one line of a question file. Evidence comes from `thread` with `step` or `steps`, from
 * `file` with `line` or `lines`, and/or from an `evidence` list; at least one item is required.
 */
export function parseQuestion(value: unknown, lineNo: number): EvalQuestion {
  const where = `line ${lineNo}`;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalidInput(`${where}: expected a JSON object`);
  const o = value as Record<string, unknown>;
  if (typeof o.question !== 'string' || o.question.trim() === '')
    throw invalidInput(`${where}: "question" must be a non-empty string`);
  const evidence: EvidenceRef[] = [];
  const numbers = (one: unknown, many: unknown, name: string, ok: (v: unknown) => boolean) => {
    const list = many === undefined ? (one === undefined ? [] : [one]) : many;
    if (!Array.isArray(list) || !list.every(ok)) throw invalidInput(`${where}: bad "${name}"`);
    return list as number[];
  };
  if (o.thread !== undefined) {
    if (typeof o.thread !== 'string' || !o.thread) throw invalidInput(`${where}: "thread" must be a string`);
    const steps = numbers(o.step, o.steps, 'step(s)', isStepNumber);
    if (steps.length === 0) evidence.push({ thread: o.thread });
    for (const step of steps) evidence.push({ thread: o.thread, step });
  }
  if (o.file !== undefined) {
    if (typeof o.file !== 'string' || !o.file) throw invalidInput(`${where}: "file" must be a string`);
    const lines = numbers(o.line, o.lines, 'line(s)', isLineNumber);
    if (lines.length === 0) throw invalidInput(`${where}: "file" needs "line" or "lines"`);
    for (const line of lines) evidence.push({ file: o.file, line });
  }
  if (o.evidence !== undefined) {
    if (!Array.isArray(o.evidence)) throw invalidInput(`${where}: "evidence" must be a list`);
    for (const item of o.evidence) evidence.push(evidenceItem(item, where));
  }
  if (evidence.length === 0)
    throw invalidInput(`${where}: no evidence (give thread and step, file and line, or evidence)`);
  if (o.project !== undefined && typeof o.project !== 'string')
    throw invalidInput(`${where}: "project" must be a string`);
  if (o.kind !== undefined && (typeof o.kind !== 'string' || !o.kind))
    throw invalidInput(`${where}: "kind" must be a non-empty string`);
  const question: EvalQuestion = {
    id: typeof o.id === 'string' && o.id ? o.id : `line-${lineNo}`,
    question: o.question,
    kind: (o.kind as string | undefined) ?? DEFAULT_KIND,
    evidence,
  };
  if (o.project) question.project = o.project as string;
  const now = parseNow(o.date, where);
  if (now !== undefined) question.now = now;
  return question;
}

/**
 * Read a whole JSONL question file. Blank lines and `//` comments are skipped; every bad line is
 * reported at once (up to 10), so a typo costs one round trip, not one per line.
 */
export function parseQuestionFile(text: string): EvalQuestion[] {
  const out: EvalQuestion[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const s = line.trim().replace(/^\uFEFF/, '');
    if (!s || s.startsWith('//')) return;
    try {
      let value: unknown;
      try {
        value = JSON.parse(s);
      } catch {
        throw invalidInput(`line ${i + 1}: not valid JSON`);
      }
      out.push(parseQuestion(value, i + 1));
    } catch (e) {
      errors.push((e as Error).message);
    }
  });
  if (errors.length > 0)
    throw invalidInput(
      `The question file has ${errors.length} bad line${errors.length === 1 ? '' : 's'}: ${errors.slice(0, 10).join('; ')}`,
      { errors: errors.slice(0, 10) },
    );
  if (out.length === 0) throw invalidInput('The question file has no questions');
  return out;
}

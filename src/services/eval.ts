/**
 * `tapedeck eval`: a retrieval scorecard on the shipped search path. Each question goes, exactly
 * as typed, through the transcript service's `search` (the call `tapedeck search` makes); with
 * `compare`, the same steps are also searched by plain BM25 (words OR-ed) and by every-word-AND
 * in a throwaway FTS5 index, in the same run. The maths is core/scorecard.ts.
 */
import { invalidInput, isTapedeckError } from '../core/errors.js';
import {
  baselineWords,
  type EvalQuestion,
  type EvidenceRef,
  JUDGED,
  type JudgedHit,
  judge,
  type Metrics,
  type Outcome,
  pathMatches,
  summarize,
} from '../core/scorecard.js';
import type { BaselineDoc, BaselineIndex, BaselineMode } from '../ports/baseline-index.js';
import type { TranscriptStore } from '../ports/transcript-store.js';
import type { TranscriptService } from './transcripts.js';

/** The systems a scorecard can hold, in report order. */
export const SYSTEMS = ['tapedeck', 'bm25_or', 'and'] as const;
export type System = (typeof SYSTEMS)[number];

export interface EvalOptions {
  /** Also run the plain baselines. */
  compare?: boolean;
  /** Only questions of these kinds. */
  kinds?: string[];
  /** Per-question ranks in the report. */
  details?: boolean;
  /** false: Tapedeck searches without query expansion (to measure what the expansion adds). */
  expand?: boolean;
  /** false: words alone, even where steps have meaning vectors (to measure what meaning adds). */
  meaning?: boolean;
}

export interface QuestionDetail {
  id: string;
  kind: string;
  question: string;
  /** 1-based rank of the first evidence hit per system, null when not in the top 10. */
  rank: Partial<Record<System, number | null>>;
  found: Partial<Record<System, number>>;
  /** Each system's first hit (what it answered instead, when it missed). */
  first: Partial<Record<System, { thread: string; step: number; line: number } | null>>;
  evidence: number;
}

export interface EvalReport {
  backend: 'sqlite' | 'postgres';
  /** Steps in the store when the run started. */
  steps: number;
  questions: number;
  systems: System[];
  overall: Partial<Record<System, Metrics>>;
  /** Per kind, in order of first appearance in the file. */
  kinds: Record<string, Partial<Record<System, Metrics>>>;
  /** Ids of questions whose evidence names no indexed thread or transcript (they count as misses). */
  unknown_evidence: string[];
  /** Questions the search refused (e.g. over its length limit), with its message; they count as misses. */
  errors: { id: string; message: string }[];
  details?: QuestionDetail[];
}

export interface EvalDeps {
  transcripts: TranscriptService;
  store: TranscriptStore;
  /** A fresh, empty baseline index (only called with `compare`). */
  createBaseline: () => BaselineIndex;
}

export interface EvalService {
  /** Score a parsed question file (core/scorecard.ts parseQuestionFile). */
  run(questions: EvalQuestion[], options?: EvalOptions): Promise<EvalReport>;
}

const PAGE = 500;

const firstOf = (hits: readonly JudgedHit[]) =>
  hits[0] ? { thread: hits[0].thread, step: hits[0].step, line: hits[0].source.line } : null;

/** Every thread of the store, page by page (threads are few next to steps). */
async function allThreads(store: TranscriptStore) {
  const out: { id: string; source: string; project: string | null }[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.listThreads({}, PAGE, offset);
    for (const t of page) out.push({ id: t.id, source: t.source ?? '', project: t.project ?? null });
    if (page.length < PAGE) return out;
  }
}

/** Copy every step of the store into the baseline index, one thread per transaction. */
async function fillBaseline(
  store: TranscriptStore,
  threads: Awaited<ReturnType<typeof allThreads>>,
  index: BaselineIndex,
): Promise<void> {
  for (const t of threads) {
    const steps = await store.getSteps(t.id, 0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    index.add(
      steps.map(
        (s): BaselineDoc => ({
          thread: t.id,
          step: s.step,
          path: s.source.path,
          line: s.source.line,
          project: t.project,
          text: s.text,
        }),
      ),
    );
  }
}

function knownEvidence(e: EvidenceRef, threadIds: ReadonlySet<string>, sources: readonly string[]): boolean {
  return 'file' in e ? sources.some((s) => pathMatches(s, e.file)) : threadIds.has(e.thread);
}

/** The eval use case over one store and the service the CLI searches with. */
export function createEvalService({ transcripts, store, createBaseline }: EvalDeps): EvalService {
  return {
    async run(all, { compare = false, kinds, details = false, expand = true, meaning = true } = {}) {
      const wanted = kinds?.length ? new Set(kinds) : null;
      const questions = wanted ? all.filter((q) => wanted.has(q.kind)) : all;
      if (questions.length === 0)
        throw invalidInput(
          `No question has kind ${[...(wanted ?? [])].join(', ')}; the file has ${[...new Set(all.map((q) => q.kind))].join(', ')}`,
        );
      const systems: System[] = compare ? [...SYSTEMS] : ['tapedeck'];
      const threads = await allThreads(store);
      const threadIds = new Set(threads.map((t) => t.id));
      const sources = threads.map((t) => t.source);
      const unknown = questions
        .filter((q) => !q.evidence.every((e) => knownEvidence(e, threadIds, sources)))
        .map((q) => q.id);

      const outcomes = new Map<System, Outcome[]>(systems.map((s) => [s, []]));
      const errors: EvalReport['errors'] = [];
      const firsts = new Map<System, QuestionDetail['first'][System][]>(systems.map((s) => [s, []]));
      const baseline = compare ? createBaseline() : null;
      try {
        if (baseline) await fillBaseline(store, threads, baseline);
        // One untimed query first: statements, caches and JIT warm up once per process, not in p99.
        // The meaning model loads here too: a word no step holds leaves the question open, so the
        // search asks for its vector (where the store has vectors).
        await Promise.resolve()
          .then(() => transcripts.search(`${questions[0].question} qzxwarmup`, { limit: JUDGED, meaning }))
          .catch(() => {});
        baseline?.search(baselineWords(questions[0].question), 'or', JUDGED);
        for (const q of questions) {
          const started = performance.now();
          let hits: JudgedHit[] = [];
          try {
            // The question's vector, where the search asks for one, is part of the wait: timed with it.
            const result = await transcripts.search(q.question, {
              limit: JUDGED,
              meaning,
              ...(q.project ? { project: q.project } : {}),
              ...(q.now !== undefined ? { now: q.now } : {}),
              ...(expand ? {} : { expand: false }),
            });
            hits = result.hits;
          } catch (e) {
            // One question the search refuses is a miss to report, not the end of the scorecard.
            if (!isTapedeckError(e)) throw e;
            errors.push({ id: q.id, message: e.message });
          }
          outcomes.get('tapedeck')?.push(judge(q.evidence, hits, performance.now() - started));
          if (details) firsts.get('tapedeck')?.push(firstOf(hits));
          if (!baseline) continue;
          const words = baselineWords(q.question);
          for (const [system, mode] of [
            ['bm25_or', 'or'],
            ['and', 'and'],
          ] as [System, BaselineMode][]) {
            const t0 = performance.now();
            const hits = baseline.search(words, mode, JUDGED, q.project);
            outcomes.get(system)?.push(judge(q.evidence, hits, performance.now() - t0));
            if (details) firsts.get(system)?.push(firstOf(hits));
          }
        }
      } finally {
        baseline?.close();
      }

      const pick = (filter: (i: number) => boolean) =>
        Object.fromEntries(
          systems.map((s) => [s, summarize((outcomes.get(s) ?? []).filter((_, i) => filter(i)))]),
        ) as Partial<Record<System, Metrics>>;
      const kindNames = [...new Set(questions.map((q) => q.kind))];
      const report: EvalReport = {
        backend: store.backend,
        steps: (await store.stats()).steps,
        questions: questions.length,
        systems,
        overall: pick(() => true),
        kinds: Object.fromEntries(kindNames.map((k) => [k, pick((i) => questions[i].kind === k)])),
        unknown_evidence: unknown,
        errors,
      };
      if (details)
        report.details = questions.map((q, i) => ({
          id: q.id,
          kind: q.kind,
          question: q.question,
          rank: Object.fromEntries(systems.map((s) => [s, outcomes.get(s)?.[i].rank ?? null])),
          found: Object.fromEntries(systems.map((s) => [s, outcomes.get(s)?.[i].found ?? 0])),
          first: Object.fromEntries(systems.map((s) => [s, firsts.get(s)?.[i] ?? null])),
          evidence: q.evidence.length,
        }));
      return report;
    },
  };
}

/**
 * Planted sessions for the eval sets: a conversation written turn by turn (with filler turns in
 * the project's own vocabulary between the turns that matter), rendered as a real Claude Code
 * transcript by bench/corpus/claude-code.ts. Steps that are evidence carry a mark; after writing,
 * each mark resolves to the transcript's `file:line`, which is what the question files name.
 */
import { writeClaudeCode } from '../corpus/claude-code.js';
import { hashSeed, Random } from '../corpus/prng.js';
import type { ModelTurn, Session, Turn } from '../corpus/session.js';
import { TextGen } from '../corpus/text.js';
import { makeToolCall, type ToolCall } from '../corpus/tools.js';
import type { Project } from '../corpus/world.js';
import type { WrittenFile } from '../corpus/writer.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** When undated questions are asked: after every planted session. */
export const ASKED_AT = '2026-12-01';

/** One question of a set, before its marks are resolved to transcript lines. */
export interface PlannedQuestion {
  question: string;
  kind: string;
  /** Marks of the evidence steps. */
  marks: string[];
  /** YYYY-MM-DD or ISO time the question is asked at. */
  date?: string;
  project?: string;
}

/** A question as shipped in eval/sets/*.jsonl. */
export interface QuestionLine {
  id: string;
  kind: string;
  question: string;
  evidence: string[];
  date: string;
  project?: string;
}

export interface AssistantOptions {
  mark?: string;
  reasoning?: string;
  /** Tool calls made before this text (rendered before the text's own line's successors). */
  tools?: ToolCall[];
  gapMs?: number;
}

/** A Claude Code session under construction. */
export class SessionBuilder {
  readonly g: TextGen;
  readonly r: Random;
  private readonly turns: Turn[] = [];
  private t: number;
  private steps = 0;

  constructor(
    private readonly corpus: Corpus,
    readonly project: Project,
    start: number,
    seed: number,
  ) {
    this.r = new Random(seed);
    this.g = new TextGen(this.r.fork(), project);
    this.t = start;
  }

  /** Current time of the conversation (ms). */
  get now(): number {
    return this.t;
  }

  /** Move the clock forward (a pause in the conversation). */
  wait(ms: number): this {
    this.t += ms;
    return this;
  }

  /** A user prompt; starts a new turn. */
  user(text: string, mark?: string): this {
    this.t += this.r.range(20_000, 240_000);
    const turn: Turn = { prompt: text, t: this.t, model: [] };
    if (mark) turn.needle = this.corpus.markId(mark);
    this.turns.push(turn);
    this.steps++;
    return this;
  }

  /** An assistant reply in the current turn, optionally after reasoning and tool calls. */
  assistant(text: string, { mark, reasoning, tools = [], gapMs }: AssistantOptions = {}): this {
    const turn = this.turns.at(-1);
    if (!turn) throw new Error('assistant() before any user()');
    this.t += gapMs ?? this.r.range(4_000, 60_000);
    if (reasoning !== undefined || tools.length > 0) {
      const mt: ModelTurn = { reasoning, calls: [], t: this.t };
      for (const call of tools) {
        call.t = this.t;
        this.t += call.durationMs + this.r.range(500, 6_000);
        mt.calls.push(call);
      }
      turn.model.push(mt);
      this.steps += (reasoning === undefined ? 0 : 1) + tools.length * 2;
      this.t += this.r.range(1_000, 10_000);
    }
    const last: ModelTurn = { text, calls: [], t: this.t };
    if (mark) last.needle = this.corpus.markId(mark);
    turn.model.push(last);
    this.steps++;
    return this;
  }

  /** Ordinary work in the project's vocabulary: prompts, reasoning, tool calls and answers. */
  filler(turns: number): this {
    const g = this.g;
    for (let i = 0; i < turns; i++) {
      this.user(g.prompt());
      const tools = Array.from({ length: this.r.range(0, 2) }, () => makeToolCall(g));
      this.assistant(g.response(), { reasoning: this.r.chance(0.5) ? g.reasoning() : undefined, tools });
    }
    return this;
  }

  /** Plain chat turns (no tools): pairs of user and assistant lines. */
  chat(pairs: [string, string][]): this {
    for (const [u, a] of pairs) this.user(u).assistant(a, { gapMs: this.r.range(20_000, 180_000) });
    return this;
  }

  /** The session for the writer (compaction is kept off: it would copy prompts into a summary). */
  session(): Session {
    return {
      agent: 'claude-code',
      id: this.r.uuid(),
      project: this.project,
      branch: this.r.pick(this.project.branches),
      start: this.turns[0]?.t ?? this.t,
      end: this.t,
      turns: this.turns,
      steps: Math.min(this.steps, 150),
      r: this.r.fork(),
      g: this.g,
    };
  }
}

/** Every planted session and question of one eval corpus. */
export class Corpus {
  private readonly marks = new Map<string, number>();
  private readonly markNames: string[] = [];
  readonly builders: SessionBuilder[] = [];
  readonly questions: PlannedQuestion[] = [];
  private count = 0;

  constructor(readonly seed: number) {}

  /** A stream of randomness for one named part of the generator. */
  random(...name: (string | number)[]): Random {
    return new Random(hashSeed(this.seed, 'eval', ...name));
  }

  markId(mark: string): number {
    if (this.marks.has(mark)) throw new Error(`mark used twice: ${mark}`);
    this.marks.set(mark, this.markNames.length);
    this.markNames.push(mark);
    return this.markNames.length - 1;
  }

  session(project: Project, start: number): SessionBuilder {
    const b = new SessionBuilder(this, project, start, hashSeed(this.seed, 'session', this.count++));
    this.builders.push(b);
    return b;
  }

  ask(q: PlannedQuestion): void {
    this.questions.push(q);
  }

  /** Render every session; returns the files and each kind's questions with `file:line` evidence. */
  render(): { files: WrittenFile[]; sets: Map<string, QuestionLine[]> } {
    const where = new Map<string, string>();
    const files: WrittenFile[] = [];
    for (const b of this.builders) {
      const out = writeClaudeCode(b.session());
      files.push(...out.files);
      for (const [id, line] of out.needles) where.set(this.markNames[id], `${out.transcript}:${line}`);
    }
    const sets = new Map<string, QuestionLine[]>();
    for (const q of this.questions) {
      const evidence = q.marks.map((m) => {
        const e = where.get(m);
        if (!e) throw new Error(`mark never written: ${m}`);
        return e;
      });
      const list = sets.get(q.kind) ?? [];
      const line: QuestionLine = {
        id: `${q.kind}-${String(list.length + 1).padStart(3, '0')}`,
        kind: q.kind,
        question: q.question,
        evidence,
        // Every question carries its "now", so recency and relative dates score the same every day.
        date: q.date ?? ASKED_AT,
      };
      if (q.project) line.project = q.project;
      list.push(line);
      sets.set(q.kind, list);
    }
    return { files, sets };
  }
}

/** Fill `{name}` slots of a template. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/** YYYY-MM-DD of a time. */
export const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A shell tool call with a given output (an error when exitCode ≠ 0). */
export function shell(command: string, output: string, exitCode = 0, description?: string): ToolCall {
  return {
    kind: 'shell',
    command,
    description,
    output,
    isError: exitCode !== 0,
    exitCode,
    durationMs: 1_500,
    t: 0,
  };
}

/** A file read returning `output`. */
export function read(path: string, output: string): ToolCall {
  return { kind: 'read', path, output, isError: false, exitCode: 0, durationMs: 40, t: 0 };
}

/** A grep over the project returning `output`. */
export function grep(pattern: string, path: string, output: string): ToolCall {
  return { kind: 'grep', pattern, path, output, isError: false, exitCode: 0, durationMs: 120, t: 0 };
}

/** An edit of `path`. */
export function edit(path: string, oldText: string, newText: string): ToolCall {
  return {
    kind: 'edit',
    path,
    oldText,
    newText,
    output: `The file ${path} has been updated.`,
    isError: false,
    exitCode: 0,
    durationMs: 60,
    t: 0,
  };
}

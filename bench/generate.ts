/**
 * Synthetic benchmark corpus: sessions of Antigravity, Claude Code, Codex CLI and Gemini CLI in
 * their real on-disk shapes under a fake HOME, plus planted question/answer needles.
 *
 *   node --import tsx bench/generate.ts --out DIR --steps N [--seed S] [--questions Q]
 *
 * Writes DIR/.gemini/antigravity/brain/…, DIR/.claude/projects/…, DIR/.codex/sessions/…,
 * DIR/.gemini/tmp/…, DIR/questions.jsonl and DIR/manifest.json. Generation is streamed: each
 * session is built, written and dropped, so memory stays flat whatever N is; one seed always
 * gives the same bytes.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { writeAntigravity } from './corpus/antigravity.js';
import { writeClaudeCode } from './corpus/claude-code.js';
import { writeCodex } from './corpus/codex.js';
import { writeGeminiCli } from './corpus/gemini-cli.js';
import { draftNeedle, NEEDLE_TEMPLATES, type QuestionKind } from './corpus/needles.js';
import { hashSeed, Random } from './corpus/prng.js';
import {
  AGENTS,
  type Agent,
  buildSession,
  needleText,
  type Session,
  type SessionPlan,
} from './corpus/session.js';
import { TextGen } from './corpus/text.js';
import { createWorld } from './corpus/world.js';
import type { WriterOutput } from './corpus/writer.js';

export interface GenerateOptions {
  /** Corpus root (a fake HOME). Created if missing; must be empty if it exists. */
  out: string;
  /** Total normalized steps across the four agents (prompts, answers, reasoning, tool calls, tool results). */
  steps: number;
  seed?: number;
  /** Needles to plant (default 100; capped at a third of the sessions). */
  questions?: number;
}

export interface AgentStats {
  sessions: number;
  steps: number;
  files: number;
  bytes: number;
}

export interface Manifest {
  generator: 'tapedeck-bench-corpus/1';
  seed: number;
  steps: number;
  sessions: number;
  files: number;
  bytes: number;
  questions: number;
  projects: number;
  perAgent: Record<Agent, AgentStats>;
}

/** One line of questions.jsonl. */
export interface QuestionRecord {
  id: string;
  question: string;
  kind: QuestionKind;
  agent: Agent;
  /** Absolute path of the transcript holding the answer. */
  file: string;
  /** 1-based line of the answering step (for Gemini .json documents: the line of its "content"). */
  line: number;
  sessionId: string;
  /** Who states the answer, and the sentence itself (verbatim in that step). */
  role: 'user' | 'assistant';
  answer: string;
}

const WRITERS: Record<Agent, (s: Session) => WriterOutput> = {
  antigravity: writeAntigravity,
  'claude-code': writeClaudeCode,
  codex: writeCodex,
  'gemini-cli': writeGeminiCli,
};

const DAY = 86_400_000;
const MIN_STEPS = 20;
const MAX_STEPS = 200;

/** Session lengths for one agent: 20–200 steps, skewed short (mean ≈ 100), summing to `total`. */
function sessionLengths(r: Random, total: number): number[] {
  const out: number[] = [];
  let rem = total;
  while (rem > 0) {
    if (rem <= MAX_STEPS) {
      if (rem < MIN_STEPS && out.length > 0) out[out.length - 1] += rem;
      else out.push(rem);
      break;
    }
    let len = MIN_STEPS + Math.floor((MAX_STEPS - MIN_STEPS) * r.next() ** 1.25);
    if (rem - len < MIN_STEPS) len = rem - MIN_STEPS;
    out.push(len);
    rem -= len;
  }
  return out;
}

interface Planned {
  plans: SessionPlan[];
  questions: QuestionRecord[];
  /** qid → plan holding it. */
  needlePlans: SessionPlan[];
  projects: ReturnType<typeof createWorld>;
}

function plan(seed: number, steps: number, wanted: number): Planned {
  const r = new Random(hashSeed(seed, 'plan'));
  const plans: SessionPlan[] = [];
  AGENTS.forEach((agent, ai) => {
    const share = Math.floor(steps / AGENTS.length) + (ai < steps % AGENTS.length ? 1 : 0);
    sessionLengths(r, share).forEach((len, index) => {
      plans.push({
        agent,
        index,
        steps: len,
        project: 0,
        start: 0,
        seed: hashSeed(seed, agent, index),
        needles: [],
        distractors: [],
        huge: 0,
      });
    });
  });
  const projects = createWorld(
    hashSeed(seed, 'world'),
    Math.min(200, Math.max(6, Math.round(plans.length / 60))),
  );
  const projectIds = projects.map((_, i) => i);
  for (const p of plans) p.project = r.zipf(projectIds);

  // Chronological order mixes the agents over ~300 days.
  r.shuffle(plans);
  const base = Date.UTC(2025, 0, 6, 8) + (seed % 60) * DAY;
  const gap = (300 * DAY) / Math.max(1, plans.length);
  plans.forEach((p, k) => {
    p.start = Math.floor(base + (k + r.next() * 0.8) * gap);
  });

  const count = Math.max(0, Math.min(wanted, Math.floor(plans.length / 3)));
  const byAgent = new Map<Agent, SessionPlan[]>(AGENTS.map((a) => [a, plans.filter((p) => p.agent === a)]));
  const templates = r.shuffle(Array.from({ length: NEEDLE_TEMPLATES }, (_, i) => i));
  const keys = new Set<string>();
  const questions: QuestionRecord[] = [];
  const needlePlans: SessionPlan[] = [];
  for (let i = 0; i < count; i++) {
    const agent = AGENTS[i % AGENTS.length];
    let pool = (byAgent.get(agent) ?? []).filter((p) => p.needles.length === 0);
    if (pool.length === 0) pool = plans.filter((p) => p.needles.length === 0);
    const host = r.pick(pool);
    const g = new TextGen(new Random(hashSeed(seed, 'needle', i)), projects[host.project]);
    let draft = draftNeedle(g, templates[i % templates.length]);
    for (let attempt = 1; keys.has(draft.key) && attempt < NEEDLE_TEMPLATES * 4; attempt++) {
      draft = draftNeedle(g, templates[(i + attempt) % templates.length]);
    }
    keys.add(draft.key);
    const keywordTurn = i % 4 === 3;
    const preferred = draft.questions.filter(([, kind]) => (kind === 'keyword') === keywordTurn);
    const [question, kind] = g.r.pick(preferred.length > 0 ? preferred : draft.questions);
    host.needles.push({ qid: i, role: draft.role, text: needleText(g, draft.role, draft.statement) });
    needlePlans.push(host);
    questions.push({
      id: `q${String(i + 1).padStart(3, '0')}`,
      question,
      kind,
      agent: host.agent,
      file: '',
      line: 0,
      sessionId: '',
      role: draft.role,
      answer: draft.statement,
    });
    // Distractors: the same words, other sessions, other contexts.
    for (let d = 0; d < 3 && plans.length > 1; d++) {
      let other = r.pick(plans);
      while (other === host) other = r.pick(plans);
      other.distractors.push(draft.distractors[d % draft.distractors.length]);
    }
  }

  if (steps >= 500_000) {
    for (let h = 0; h < Math.floor(steps / 250_000); h++)
      r.pick(plans).huge = Math.round(r.logUniform(2e6, 5e6));
  }
  return { plans, questions, needlePlans, projects };
}

function emptyStats(): AgentStats {
  return { sessions: 0, steps: 0, files: 0, bytes: 0 };
}

/** Generate a corpus into `opts.out` and return its manifest (also written to manifest.json). */
export async function generateCorpus(opts: GenerateOptions): Promise<Manifest> {
  const out = resolve(opts.out);
  const seed = (opts.seed ?? 1) >>> 0;
  const steps = Math.max(1, Math.floor(opts.steps));
  try {
    if (readdirSync(out).length > 0) throw new Error(`output directory is not empty: ${out}`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(out, { recursive: true });

  const { plans, questions, projects } = plan(seed, steps, opts.questions ?? 100);
  const perAgent = Object.fromEntries(AGENTS.map((a) => [a, emptyStats()])) as Record<Agent, AgentStats>;
  const dirs = new Set<string>();
  let files = 0;
  let bytes = 0;

  for (const p of plans) {
    const session = buildSession(p, projects[p.project]);
    const written = WRITERS[p.agent](session);
    const stats = perAgent[p.agent];
    for (const f of written.files) {
      const abs = join(out, f.rel);
      const dir = dirname(abs);
      if (!dirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        dirs.add(dir);
      }
      const buf = Buffer.from(f.data, 'utf8');
      writeFileSync(abs, buf);
      stats.files++;
      stats.bytes += buf.length;
      files++;
      bytes += buf.length;
    }
    stats.sessions++;
    stats.steps += p.steps;
    for (const [qid, line] of written.needles) {
      const q = questions[qid];
      q.file = join(out, written.transcript);
      q.line = line;
      q.sessionId = session.id;
    }
  }

  const placed = questions.filter((q) => q.line > 0);
  writeFileSync(
    join(out, 'questions.jsonl'),
    placed.map((q) => JSON.stringify(q)).join('\n') + (placed.length ? '\n' : ''),
  );
  const manifest: Manifest = {
    generator: 'tapedeck-bench-corpus/1',
    seed,
    steps,
    sessions: plans.length,
    files,
    bytes,
    questions: placed.length,
    projects: projects.length,
    perAgent,
  };
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function formatBytes(n: number): string {
  return n >= 1e9
    ? `${(n / 1e9).toFixed(2)} GB`
    : n >= 1e6
      ? `${(n / 1e6).toFixed(1)} MB`
      : `${(n / 1e3).toFixed(1)} KB`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      steps: { type: 'string' },
      seed: { type: 'string' },
      questions: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const usage = 'usage: node --import tsx bench/generate.ts --out DIR --steps N [--seed S] [--questions Q]';
  if (values.help) {
    process.stderr.write(`${usage}\n`);
    return;
  }
  const stepsN = Number(values.steps);
  const intOrUndefined = (v: string | undefined) => v === undefined || Number.isInteger(Number(v));
  if (
    !values.out ||
    !Number.isInteger(stepsN) ||
    stepsN < 1 ||
    !intOrUndefined(values.seed) ||
    !intOrUndefined(values.questions)
  ) {
    process.stderr.write(`${usage}\n`);
    process.exitCode = 2;
    return;
  }
  const started = process.hrtime.bigint();
  const m = await generateCorpus({
    out: values.out,
    steps: stepsN,
    seed: values.seed === undefined ? undefined : Number(values.seed),
    questions: values.questions === undefined ? undefined : Number(values.questions),
  });
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  const agents = AGENTS.map((a) => `${a} ${m.perAgent[a].sessions}`).join(', ');
  process.stderr.write(
    `corpus: ${m.steps} steps, ${m.sessions} sessions (${agents}), ${m.files} files, ${formatBytes(m.bytes)}, ${m.questions} questions, seed ${m.seed}, ${secs.toFixed(1)}s → ${resolve(values.out)}\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  });
}

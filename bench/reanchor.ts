/**
 * How much of what an agent needs right after a compaction the re-anchor gives back: for each
 * compaction, the files, commands and identifiers the next 20 steps refer to, and the share of
 * them the re-anchor (≤ budget tokens) names. Sessions: the recorded Claude Code session with its
 * real compaction, and a generated corpus (bench/generate.ts, the four agents' real shapes,
 * indexed through the engine) compacted at every 40th step. Baseline in the same run, same
 * budget: the most recent steps before the compaction, newest first, as much as fits (what a
 * "keep the tail" strategy keeps).
 *
 *   node --import tsx bench/reanchor.ts [--steps 20000] [--seed 1] [--budget 600]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/app/config.js';
import { createEngine } from '../src/app/engine.js';
import { readTranscriptSteps } from '../src/app/session-capture.js';
import { displayPath, looksLikePath, shorten } from '../src/core/handoff.js';
import { buildReanchor, compactionSteps } from '../src/core/reanchor.js';
import { estimateTokens } from '../src/core/token-budget.js';
import { commandHeads, isCommandTool } from '../src/core/tool-outcomes.js';
import type { Step } from '../src/core/types.js';
import { readAllSteps } from '../src/services/saved-threads/handoff.js';
import { generateCorpus } from './generate.js';

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
    budget: { type: 'string', default: '600' },
  },
});
const BUDGET = Number(values.budget);
const NEXT = 20;
const EVERY = 40;
const log = (m: string) => process.stderr.write(`[reanchor] ${m}\n`);

type Kind = 'file' | 'cmd' | 'id';
interface Ref {
  kind: Kind;
  value: string;
}

const PATH_IN_TEXT = /(?:[\w.-]+\/)+[\w.-]+\.[A-Za-z]{1,5}\b/g;
const IDENT_IN_TEXT = /`([A-Za-z_][\w.]{2,60})`/g;

/** What a stretch of steps refers to: files, commands (their heads), identifiers in backticks. */
function refsOf(steps: readonly Step[], project: string | undefined): Map<string, Ref> {
  const out = new Map<string, Ref>();
  const add = (kind: Kind, value: string) => out.set(`${kind}:${value}`, { kind, value });
  for (const s of steps) {
    if (s.kind === 'tool_call' && s.target) {
      if (isCommandTool(s.tool)) for (const h of commandHeads(s.target)) add('cmd', h);
      else if (looksLikePath(s.target)) add('file', displayPath(s.target, project));
    }
    // Tool results are file contents and output: what the agent reads, not what it refers to.
    if (s.kind === 'tool_result' || s.kind === 'tool_call' || s.kind === 'summary') continue;
    for (const m of s.text.matchAll(PATH_IN_TEXT)) add('file', displayPath(m[0], project));
    for (const m of s.text.matchAll(IDENT_IN_TEXT)) if (!m[1].includes('/')) add('id', m[1]);
  }
  return out;
}

/** The baseline: the newest steps before the point, one line each, newest first, within the budget. */
function tail(steps: readonly Step[], project: string | undefined): string {
  let text = '';
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    const body = s.kind === 'tool_call' ? `${s.tool} ${displayPath(s.target ?? '', project)}` : s.text;
    const line = `${s.role}: ${shorten(body, 200)}\n`;
    if (estimateTokens(text + line) > BUDGET) break;
    text = line + text;
  }
  return text;
}

interface Tally {
  cuts: number;
  refs: number;
  /** Refs also seen before the cut (the most any re-anchor could name). */
  seen: number;
  hitReanchor: number;
  hitTail: number;
  seenHitReanchor: number;
  seenHitTail: number;
  byKind: Record<Kind, { refs: number; reanchor: number; tail: number }>;
  tokens: number[];
  ms: number[];
}

const tally = (): Tally => ({
  cuts: 0,
  refs: 0,
  seen: 0,
  hitReanchor: 0,
  hitTail: 0,
  seenHitReanchor: 0,
  seenHitTail: 0,
  byKind: {
    file: { refs: 0, reanchor: 0, tail: 0 },
    cmd: { refs: 0, reanchor: 0, tail: 0 },
    id: { refs: 0, reanchor: 0, tail: 0 },
  },
  tokens: [],
  ms: [],
});

/** One compaction at `cut`: the re-anchor and the baseline against the next 20 steps' refs. */
function measure(t: Tally, thread: string, steps: readonly Step[], cut: number, project: string | undefined) {
  const before = steps.filter((s) => s.step < cut);
  const next = steps.filter((s) => s.step > cut).slice(0, NEXT);
  const wanted = refsOf(next, project);
  if (wanted.size === 0) return;
  const t0 = performance.now();
  const r = buildReanchor(steps, { thread, project, before: cut, budget: BUDGET });
  t.ms.push(performance.now() - t0);
  const base = tail(before, project);
  const earlier = refsOf(before, project);
  t.cuts++;
  t.tokens.push(r.tokens);
  for (const [key, ref] of wanted) {
    const inR = r.text.includes(ref.value);
    const inT = base.includes(ref.value);
    t.refs++;
    t.byKind[ref.kind].refs++;
    if (inR) t.hitReanchor++, t.byKind[ref.kind].reanchor++;
    if (inT) t.hitTail++, t.byKind[ref.kind].tail++;
    if (earlier.has(key)) {
      t.seen++;
      if (inR) t.seenHitReanchor++;
      if (inT) t.seenHitTail++;
    }
  }
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '—');
const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);

function report(name: string, t: Tally): string {
  const k = t.byKind;
  return `| ${name} | ${t.cuts} | ${t.refs} | **${pct(t.hitReanchor, t.refs)}** | ${pct(t.hitTail, t.refs)} | **${pct(t.seenHitReanchor, t.seen)}** | ${pct(t.seenHitTail, t.seen)} | ${pct(k.file.reanchor, k.file.refs)} / ${pct(k.cmd.reanchor, k.cmd.refs)} / ${pct(k.id.reanchor, k.id.refs)} | ${pct(k.file.tail, k.file.refs)} / ${pct(k.cmd.tail, k.cmd.refs)} / ${pct(k.id.tail, k.id.refs)} | ${Math.round(avg(t.tokens))} / ${Math.max(0, ...t.tokens)} | ${avg(t.ms).toFixed(2)} ms |`;
}

async function main(): Promise<void> {
  const rows: string[] = [];
  // The recorded session: a real Claude Code compaction (compact_boundary + continuation summary).
  const fixture = join(
    import.meta.dirname,
    '..',
    'src/sources/claude-code/fixtures/4f1c2d3e-8a9b-4c5d-9e0f-1a2b3c4d5e6f.jsonl',
  );
  const rec = readTranscriptSteps('claude-code', fixture);
  const recorded = tally();
  for (const cut of compactionSteps(rec.steps))
    measure(recorded, `claude-code:${rec.meta.sessionId}`, rec.steps, cut, rec.meta.project);
  rows.push(report('recorded Claude Code session (real compaction)', recorded));

  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-reanchor-bench-'));
  try {
    const m = await generateCorpus({
      out: join(dir, 'home'),
      steps: Number(values.steps),
      seed: Number(values.seed),
    });
    log(`generated ${m.sessions} sessions, ${m.steps} steps`);
    const engine = createEngine(loadConfig({ home: join(dir, 'td') }, {}), { locateHome: join(dir, 'home') });
    try {
      engine.transcripts.index();
      const per: Record<string, Tally> = {};
      const all = tally();
      for (const th of engine.store.listThreads({}, 100_000, 0)) {
        if (th.stepCount < EVERY + NEXT) continue;
        const steps = readAllSteps(engine.store, th.id);
        const last = steps.at(-1)?.step ?? 0;
        per[th.agent] ??= tally();
        for (let cut = EVERY; cut + NEXT <= last; cut += EVERY) {
          measure(per[th.agent], th.id, steps, cut, th.project);
          measure(all, th.id, steps, cut, th.project);
        }
      }
      for (const [agent, t] of Object.entries(per).sort()) rows.push(report(`generated, ${agent}`, t));
      rows.push(
        report(`generated, all (${m.steps.toLocaleString('en-US')} steps, seed ${values.seed})`, all),
      );
    } finally {
      engine.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `Budget ${BUDGET} tokens; refs = files, commands, identifiers the next ${NEXT} steps refer to.\n\n` +
      '| sessions | compactions | refs | re-anchor names | tail baseline names | of refs seen before: re-anchor | tail | re-anchor files / cmds / ids | tail files / cmds / ids | re-anchor tokens avg / max | build time |\n' +
      '|---|---|---|---|---|---|---|---|---|---|---|\n' +
      rows.join('\n'),
  );
}

await main();

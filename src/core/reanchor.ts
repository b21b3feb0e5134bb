/**
 * A re-anchor after a context compaction, built without an LLM from the steps of one thread
 * before the compaction: the user's latest ask in their own words, the task and its plan, the
 * decisions with their reasons, the files touched, the last commands and how they ended, and the
 * errors not yet resolved — each item with its `tapedeck://thread/<id>#<step>` link, packed into a
 * small token budget (what matters most to resume survives a tight budget, the rest is left out
 * and counted). The sections come from the handoff heuristics, so both read a session alike.
 */
import {
  buildHandoff,
  displayPath,
  isOpenPlanItem,
  looksLikePath,
  type PlanItem,
  planItems,
  requestText,
  resultOf,
  shorten,
} from './handoff.js';
import { threadLink } from './memory.js';
import { type PackItem, pack, type TokenCounter } from './token-budget.js';
import { failureLine, isCommandTool } from './tool-outcomes.js';
import type { Step } from './types.js';

export const DEFAULT_REANCHOR_BUDGET = 600;

export interface ReanchorItem {
  text: string;
  step: number;
}

export interface ReanchorFile {
  path: string;
  /** Successful edit/write calls on it; 0 when it was only read. */
  edits: number;
  step: number;
}

export interface ReanchorCommand {
  command: string;
  outcome: 'ok' | 'failed' | 'rejected' | 'no result';
  /** The first error line when it failed. */
  detail?: string;
  step: number;
  /** The step of its result, when there was one. */
  result_step?: number;
}

export interface Reanchor {
  thread: string;
  /** The compaction this re-anchor stands in for (its summary step); absent without one. */
  compacted_at?: number;
  /** Steps read: those before the point. */
  steps: number;
  /** The user's latest request, in their words; `open` when the agent never reported it done. */
  ask?: ReanchorItem & { open: boolean };
  /** The request that framed the session, when it is not the latest ask. */
  task?: ReanchorItem;
  plan: (ReanchorItem & { status: string })[];
  decisions: ReanchorItem[];
  files: ReanchorFile[];
  commands: ReanchorCommand[];
  errors: ReanchorItem[];
  /** Backticked names the latest prose kept using, newest first (a few per item). */
  in_play: ReanchorItem[];
  /** The packed text to put back in the agent's context. */
  text: string;
  tokens: number;
  budget: number;
  /** Items that did not fit the budget. */
  omitted: number;
}

export interface ReanchorOptions {
  /** The thread id the links point into. */
  thread: string;
  project?: string;
  /** Read only the steps before this one; default: before the last compaction, else all. */
  before?: number;
  budget?: number;
  count?: TokenCounter;
}

/** How long a summary must be to be a continuation summary rather than a title-like one. */
const CONTINUATION_CHARS = 200;
const READ_TOOL = /(?:^|_)(?:read|view)(?:_|$)|read_?file|view_?file|^cat$/i;
const MAX_COMMANDS = 8;
const MAX_READS = 8;

/**
 * The steps where the host compacted the conversation: a system summary (Claude Code's
 * continuation summary, Codex's `compacted` item) after the session had begun. The short
 * title-like summaries some transcripts carry are not compactions.
 */
export function compactionSteps(steps: readonly Step[]): number[] {
  const out: number[] = [];
  let begun = false;
  for (const s of [...steps].sort((a, b) => a.step - b.step)) {
    if (s.kind === 'summary' && s.role === 'system') {
      if (begun && (s.text.length >= CONTINUATION_CHARS || s.text.includes('\n'))) out.push(s.step);
    } else if (s.role === 'user' || s.role === 'tool') begun = true;
  }
  return out;
}

function lastCommands(steps: readonly Step[], project: string | undefined): ReanchorCommand[] {
  const out: ReanchorCommand[] = [];
  for (let i = steps.length - 1; i >= 0 && out.length < MAX_COMMANDS; i--) {
    const s = steps[i];
    if (s.kind !== 'tool_call' || !isCommandTool(s.tool) || !s.target) continue;
    const result = resultOf(steps, i);
    const failure = result ? failureLine(result.text, result.tool) : undefined;
    const rejected =
      failure !== undefined &&
      /doesn't want to proceed|was rejected|user (?:denied|declined|rejected)/i.test(failure);
    out.unshift({
      command: shorten(displayPath(s.target, project), 120),
      outcome: !result ? 'no result' : rejected ? 'rejected' : failure !== undefined ? 'failed' : 'ok',
      ...(failure !== undefined && !rejected ? { detail: shorten(failure, 140) } : {}),
      step: s.step,
      ...(result ? { result_step: result.step } : {}),
    });
  }
  return out;
}

function readFiles(steps: readonly Step[], project: string | undefined, edited: Set<string>): ReanchorFile[] {
  const out: ReanchorFile[] = [];
  for (let i = steps.length - 1; i >= 0 && out.length < MAX_READS; i--) {
    const s = steps[i];
    if (s.kind !== 'tool_call' || !s.tool || !s.target || !READ_TOOL.test(s.tool)) continue;
    if (!looksLikePath(s.target)) continue;
    const path = displayPath(s.target, project);
    if (edited.has(path) || out.some((f) => f.path === path)) continue;
    out.push({ path, edits: 0, step: s.step });
  }
  return out.reverse();
}

const MAX_IN_PLAY = 18;
const IN_PLAY_LINE = 6;
/** A backticked span that names something: an identifier, a path, a flag — not a sentence. */
const BACKTICKED = /`([^`\s]{3,80})`/g;

/**
 * What the latest prose kept referring to: the backticked names (identifiers, paths) of the last
 * prompts, answers and reasoning, newest first — the words the next steps are likely to use.
 */
function inPlay(steps: readonly Step[], shown: string): ReanchorItem[] {
  const names: { name: string; step: number }[] = [];
  for (let i = steps.length - 1; i >= 0 && names.length < MAX_IN_PLAY; i--) {
    const s = steps[i];
    if (s.kind !== 'prompt' && s.kind !== 'response' && s.kind !== 'reasoning') continue;
    const found = [...s.text.matchAll(BACKTICKED)].map((m) => m[1]).reverse();
    for (const name of found) {
      if (names.length >= MAX_IN_PLAY) break;
      if (shown.includes(name) || names.some((n) => n.name === name)) continue;
      names.push({ name, step: s.step });
    }
  }
  const out: ReanchorItem[] = [];
  for (let i = 0; i < names.length; i += IN_PLAY_LINE) {
    const chunk = names.slice(i, i + IN_PLAY_LINE);
    out.push({ text: chunk.map((n) => `\`${n.name}\``).join(', '), step: chunk[0].step });
  }
  return out;
}

const PLAN_MARK: Record<string, string> = { completed: 'x', done: 'x', in_progress: '>' };

/** Build the re-anchor of a thread from its steps (any order). */
export function buildReanchor(all: readonly Step[], options: ReanchorOptions): Reanchor {
  const { thread, project, budget = DEFAULT_REANCHOR_BUDGET } = options;
  const ordered = [...all].sort((a, b) => a.step - b.step);
  const compacted_at = options.before ?? compactionSteps(ordered).at(-1);
  const steps = compacted_at === undefined ? ordered : ordered.filter((s) => s.step < compacted_at);
  const handoff = buildHandoff(steps, { project, maxDecisions: 6, maxFiles: 10, maxRisks: 5 });

  const lastPrompt = steps.findLast(
    (s) => s.role === 'user' && s.kind === 'prompt' && requestText(s.text) !== '',
  );
  const open = handoff.next.some(
    (n) => n.step === lastPrompt?.step && n.text.startsWith('Unfinished request'),
  );
  const ask = lastPrompt && { text: shorten(requestText(lastPrompt.text), 400), step: lastPrompt.step, open };
  const first = handoff.goal[0];
  const task = first && first.step !== ask?.step ? first : undefined;
  const plan = planItems(steps).map((p: PlanItem) => ({ text: p.text, status: p.status, step: p.step }));
  const edited = new Set(handoff.files.map((f) => f.path));
  const files: ReanchorFile[] = [...handoff.files, ...readFiles(steps, project, edited)];
  const commands = lastCommands(steps, project);
  const errors = handoff.risks;
  const decisions = handoff.decisions;
  const shownNames = [ask?.text, ...files.map((f) => f.path), ...commands.map((c) => c.command)].join('\n');
  const in_play = inPlay(steps, shownNames);

  // The thread's link is spelled once in the head; each item ends with its step (`#N`), which
  // completes it. Spelled out per item, the links took ~40% of the budget (bench/reanchor.ts).
  const link = (step: number) => ` #${step}`;
  const items: PackItem[] = [];
  const add = (tier: number, header: string, text: string, step: number): void => {
    items.push({ tier, headers: [header], text: `${text}${link(step)}\n` });
  };
  if (ask) add(0, 'ask', `- ${ask.open ? '' : '(reported done) '}"${ask.text}"`, ask.step);
  if (task) add(0, 'task', `- ${task.text}`, task.step);
  for (const p of plan)
    add(isOpenPlanItem(p) ? 1 : 3, 'plan', `- [${PLAN_MARK[p.status] ?? ' '}] ${p.text}`, p.step);
  decisions.forEach((d, i) => {
    add(i >= decisions.length - 2 ? 2 : 3, 'decisions', `- ${d.text}`, d.step);
  });
  for (const f of files)
    add(
      f.edits > 0 ? 2 : 3,
      'files',
      `- \`${f.path}\`${f.edits > 1 ? ` edited ×${f.edits}` : f.edits === 1 ? ' edited' : ' read'}`,
      f.step,
    );
  commands.forEach((c, i) => {
    const how = c.outcome === 'failed' ? `failed: ${c.detail}` : c.outcome;
    add(i >= commands.length - 3 ? 1 : 2, 'commands', `- \`${c.command}\` → ${how}`, c.step);
  });
  in_play.forEach((n, i) => {
    add(i === 0 ? 2 : 3, 'in_play', `- ${n.text}`, n.step);
  });
  // A failed command listed above already says so; the errors section names the other ones.
  for (const e of errors)
    if (!commands.some((c) => c.result_step === e.step)) add(1, 'errors', `- ${e.text}`, e.step);

  const head =
    `<tapedeck_reanchor thread="${thread}"${compacted_at === undefined ? '' : ` compacted_at="${compacted_at}"`}>\n` +
    `Your context was compacted. From the transcript before it (no LLM); #N is the step ${threadLink(thread, 0).replace(/0$/, 'N')}:\n`;
  const footer = (omitted: number[]) =>
    `${omitted.length ? `(${omitted.length} more left out: tapedeck reanchor ${thread} --budget ${budget * 2})\n` : ''}</tapedeck_reanchor>\n`;
  const packed = pack(
    items,
    {
      head,
      headers: {
        ask: "User's latest ask:\n",
        task: 'Session task:\n',
        plan: 'Plan:\n',
        decisions: 'Decisions:\n',
        files: 'Files:\n',
        commands: 'Last commands:\n',
        errors: 'Unresolved errors:\n',
        in_play: 'Names in play:\n',
      },
      footer,
      worstFooter: footer(items.map((_, i) => i)),
    },
    { budget, shares: { 1: 0.45, 2: 0.35, 3: 0.2 }, count: options.count },
  );
  return {
    thread,
    ...(compacted_at === undefined ? {} : { compacted_at }),
    steps: steps.length,
    ...(ask ? { ask } : {}),
    ...(task ? { task } : {}),
    plan,
    decisions,
    files,
    commands,
    errors,
    in_play,
    text: packed.text,
    tokens: packed.tokens,
    budget,
    omitted: packed.omitted.length,
  };
}

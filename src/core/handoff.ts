/**
 * A handoff from a session, built without an LLM: what the user asked (Goal), what was decided
 * (Decisions), which files were changed (Files), what is still broken or flagged (Risks) and what
 * is left to do (Next). Every item points back to the step it came from.
 */
import { decisionSentences } from './decisions.js';
import { squash } from './text.js';
import { failureLine, outcomeKeys } from './tool-outcomes.js';
import type { Step } from './types.js';

export interface HandoffItem {
  text: string;
  /** The source thread's step this came from. */
  step: number;
}

export interface HandoffFile {
  /** Relative to the project when inside it. */
  path: string;
  /** Successful (or unconfirmed) edit/write calls on it. */
  edits: number;
  /** Last step that touched it. */
  step: number;
}

export interface Handoff {
  goal: HandoffItem[];
  decisions: HandoffItem[];
  files: HandoffFile[];
  risks: HandoffItem[];
  next: HandoffItem[];
}

export interface HandoffOptions {
  /** The session's working directory: file paths under it are shown relative to it. */
  project?: string;
  maxGoals?: number;
  maxDecisions?: number;
  maxFiles?: number;
  maxRisks?: number;
}

const ITEM_CHARS = 200;
/**
 * Replies that carry no request; a prompt that starts with one is read from after it. Includes
 * the confirmations a user sends when a task is finished ("Thanks, that works."), which must not
 * reopen it.
 */
const ACK =
  /^(?:ok(?:ay)?|yes|yep|yeah|sure|thanks?(?: you)?(?: so much)?|thx|great|nice|cool|perfect|good|lgtm|sounds good|go ahead|continue|proceed|do it|alright|right|awesome|excellent|(?:that|it|this)(?: all)? works(?: now| great| fine| perfectly)?|works(?: now| great)?|(?:looks|all) good(?: to me)?|(?:that|this) (?:did it|fixed it|is it)|(?:great|nice|good) (?:job|work)|well done)(?:[.,!:;]+\s*|\s*$)/i;
const EDIT_TOOL = /(?:edit|write|replace|patch|create|insert)/i;
const NOT_FILE_TOOL = /(?:todo|plan|memory|read|view|issue|comment)/i;
const PLAN_TOOL = /(?:todo|plan)/i;
const TODO_MENTION = /\b(?:TODO|FIXME)\b/;
const COMPLETION =
  /\b(?:done|completed?|finished|fixed|committed|merged|deployed|pushed|shipped|resolved|implemented|added|created|updated|wrote|written|removed|renamed|replaced|applied|all (?:tests|checks) pass(?:ed|ing)?)\b/i;
const NOT_COMPLETE =
  /\b(?:not (?:yet |quite )?(?:done|finished|fixed|complete)|still (?:fail|broken|red)|isn't (?:done|fixed))/i;

/** One line, squashed, cut on a word boundary. */
export function shorten(text: string, max = ITEM_CHARS): string {
  const line = squash(text.split('\n').find((l) => l.trim() !== '') ?? '');
  if (line.length <= max) return line;
  return `${line.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** A user prompt with leading acknowledgements removed; '' when it only acknowledges. */
export function requestText(prompt: string): string {
  let s = prompt.trim();
  for (let i = 0; i < 3; i++) {
    const m = ACK.exec(s);
    if (!m || m[0].length === 0) break;
    s = s.slice(m[0].length).trim();
  }
  return s;
}

const dedupeKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Keep the first of near-identical items (same words, or one containing the other). */
function dedupe(items: HandoffItem[]): HandoffItem[] {
  const out: HandoffItem[] = [];
  const keys: string[] = [];
  for (const it of items) {
    const k = dedupeKey(it.text);
    if (!k) continue;
    if (keys.some((o) => o === k || (k.length > 20 && o.length > 20 && (o.includes(k) || k.includes(o)))))
      continue;
    keys.push(k);
    out.push(it);
  }
  return out;
}

const prompts = (steps: readonly Step[]) => steps.filter((s) => s.role === 'user' && s.kind === 'prompt');
const responses = (steps: readonly Step[]) =>
  steps.filter((s) => s.role === 'assistant' && s.kind === 'response');

function goals(steps: readonly Step[], max: number): HandoffItem[] {
  const requests = dedupe(
    prompts(steps)
      .map((s) => ({ text: shorten(requestText(s.text)), step: s.step }))
      .filter((r) => r.text !== ''),
  );
  if (requests.length <= max) return requests;
  // The first request frames the session; the latest ones say where it ended up.
  return [requests[0], ...requests.slice(requests.length - (max - 1))];
}

function decisions(steps: readonly Step[], max: number): HandoffItem[] {
  const found = dedupe(
    responses(steps).flatMap((s) => decisionSentences(s.text).map((text) => ({ text, step: s.step }))),
  );
  // Later decisions tend to be the settled ones; keep those when there are many.
  return found.slice(-max);
}

/** A path relative to the project when it lies inside it. */
export function displayPath(path: string, project: string | undefined): string {
  const root = project?.replace(/\/+$/, '');
  return root && path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

export const looksLikePath = (t: string): boolean =>
  !/\s/.test(t) && !/^[a-z]+:\/\//i.test(t) && /[/.]/.test(t);

/** The tool result answering a call: the next result of the same tool and target. */
export function resultOf(steps: readonly Step[], index: number): Step | undefined {
  const call = steps[index];
  for (let i = index + 1; i < steps.length; i++) {
    const s = steps[i];
    if (s.kind === 'tool_result' && s.tool === call.tool && s.target === call.target) return s;
  }
  return undefined;
}

function files(steps: readonly Step[], project: string | undefined, max: number): HandoffFile[] {
  const byPath = new Map<string, HandoffFile & { first: number }>();
  steps.forEach((s, i) => {
    if (s.kind !== 'tool_call' || !s.tool || !s.target) return;
    if (!EDIT_TOOL.test(s.tool) || NOT_FILE_TOOL.test(s.tool)) return;
    const result = resultOf(steps, i);
    if (result?.text.startsWith('[error]')) return; // the edit did not happen
    for (const raw of s.target.split(/,\s+/)) {
      const target = raw.trim();
      if (!looksLikePath(target)) continue;
      const path = displayPath(target, project);
      const f = byPath.get(path) ?? { path, edits: 0, step: s.step, first: i };
      f.edits++;
      f.step = s.step;
      byPath.set(path, f);
    }
  });
  return [...byPath.values()]
    .sort((a, b) => b.edits - a.edits || a.first - b.first)
    .slice(0, max)
    .map(({ first: _first, ...f }) => f);
}

function risks(steps: readonly Step[], project: string | undefined, max: number): HandoffItem[] {
  const results = steps.filter((s) => s.kind === 'tool_result');
  const out: HandoffItem[] = [];
  const reported = new Set<string>();
  results.forEach((r, i) => {
    const failure = failureLine(r.text, r.tool);
    if (failure === undefined) return;
    const keys = outcomeKeys(r.tool, r.target);
    const settled = results
      .slice(i + 1)
      .some(
        (later) =>
          failureLine(later.text, later.tool) === undefined &&
          outcomeKeys(later.tool, later.target).some((k) => keys.includes(k)),
      );
    if (settled) return;
    const id = keys.join('|');
    if (reported.has(id)) return;
    reported.add(id);
    const what = r.target ? `\`${shorten(displayPath(r.target, project), 80)}\`` : (r.tool ?? 'a tool call');
    const rejected = /doesn't want to proceed|was rejected|user (?:denied|declined|rejected)/i.test(failure);
    out.push({
      text: rejected ? `${what} was rejected by the user` : `${what} failed: ${shorten(failure, 160)}`,
      step: r.step,
    });
  });
  for (const s of steps) {
    if (!((s.role === 'user' && s.kind === 'prompt') || (s.role === 'assistant' && s.kind === 'response')))
      continue;
    for (const line of s.text.split('\n')) {
      const m = TODO_MENTION.exec(line);
      if (m) out.push({ text: shorten(line.slice(m.index), 160), step: s.step });
    }
  }
  return dedupe(out).slice(-max);
}

export interface PlanItem extends HandoffItem {
  /** As the agent wrote it: pending, in_progress, completed, … */
  status: string;
}

/** Every item of the latest todo list or plan the agent kept (Claude TodoWrite, Codex update_plan, …). */
export function planItems(steps: readonly Step[]): PlanItem[] {
  const last = steps.findLast((s) => s.kind === 'tool_call' && !!s.tool && PLAN_TOOL.test(s.tool));
  if (!last) return [];
  const items: PlanItem[] = [];
  const re =
    /"(?:content|step|description|title|text)"\s*:\s*"((?:[^"\\]|\\.)+)"\s*,\s*(?:"[a-zA-Z]+"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)?"status"\s*:\s*"([a-z_]+)"/g;
  for (const m of last.text.matchAll(re))
    items.push({ text: shorten(m[1], 160), status: m[2], step: last.step });
  return items;
}

/** A plan item still to do. */
export const isOpenPlanItem = (i: PlanItem): boolean =>
  /^(?:pending|in_progress|todo|not_started)$/.test(i.status);

/** Open items of the latest todo list or plan. */
function openPlanItems(steps: readonly Step[]): HandoffItem[] {
  return planItems(steps)
    .filter(isOpenPlanItem)
    .map((i) => ({ text: `Open todo: ${i.text}`, step: i.step }));
}

function next(steps: readonly Step[]): HandoffItem[] {
  const out: HandoffItem[] = [];
  const requests = prompts(steps).filter((s) => requestText(s.text) !== '');
  const last = requests.at(-1);
  if (last) {
    // Judged on the assistant's last words after the request: that is where a finished task is reported.
    const final = responses(steps).findLast((r) => r.step > last.step);
    const answered = !!final && COMPLETION.test(final.text) && !NOT_COMPLETE.test(final.text);
    if (!answered)
      out.push({ text: `Unfinished request: ${shorten(requestText(last.text))}`, step: last.step });
  }
  out.push(...openPlanItems(steps));
  return dedupe(out);
}

/** Build the five sections from a session's steps (in step order). */
export function buildHandoff(steps: readonly Step[], options: HandoffOptions = {}): Handoff {
  const { project, maxGoals = 5, maxDecisions = 8, maxFiles = 15, maxRisks = 8 } = options;
  const ordered = [...steps].sort((a, b) => a.step - b.step);
  return {
    goal: goals(ordered, maxGoals),
    decisions: decisions(ordered, maxDecisions),
    files: files(ordered, project, maxFiles),
    risks: risks(ordered, project, maxRisks),
    next: next(ordered),
  };
}

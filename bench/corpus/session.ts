/**
 * The agent-neutral shape of a session: turns of (user prompt → model turns → final answer),
 * where a model turn is optional reasoning, optional text and tool calls. A "step" is one
 * normalized unit: a prompt, a reasoning block, a text, a tool call or a tool result; the builder
 * produces exactly the planned number of steps. Writers render this shape per agent.
 */
import { Random } from './prng.js';
import { T, TextGen } from './text.js';
import { hugeToolCall, makeToolCall, type ToolCall } from './tools.js';
import type { Project } from './world.js';

export const AGENTS = ['antigravity', 'claude-code', 'codex', 'gemini-cli'] as const;
export type Agent = (typeof AGENTS)[number];

export interface ModelTurn {
  reasoning?: string;
  text?: string;
  calls: ToolCall[];
  /** ms since epoch. */
  t: number;
  /** Question index when `text` carries a needle. */
  needle?: number;
}

export interface Turn {
  prompt: string;
  t: number;
  /** Question index when `prompt` carries a needle. */
  needle?: number;
  model: ModelTurn[];
}

export interface Session {
  agent: Agent;
  id: string;
  project: Project;
  branch: string;
  start: number;
  end: number;
  turns: Turn[];
  steps: number;
  /** Writer-side randomness (ids, scaffolding), independent of the content stream. */
  r: Random;
  g: TextGen;
}

/** A needle placed in a session: the whole step text and which role says it. */
export interface PlacedNeedle {
  qid: number;
  role: 'user' | 'assistant';
  text: string;
}

export interface SessionPlan {
  agent: Agent;
  /** Index among this agent's sessions. */
  index: number;
  steps: number;
  project: number;
  start: number;
  seed: number;
  needles: PlacedNeedle[];
  distractors: string[];
  /** Bytes of one multi-megabyte tool output, or 0. */
  huge: number;
}

function newModelTurn(t: number): ModelTurn {
  return { calls: [], t };
}

/** Build one session with exactly `plan.steps` steps. */
export function buildSession(plan: SessionPlan, project: Project): Session {
  const r = new Random(plan.seed);
  const g = new TextGen(r, project);
  const headings = plan.agent === 'codex';
  let t = plan.start;
  g.clock = t;
  const turns: Turn[] = [];
  let remaining = plan.steps;

  while (remaining >= 2) {
    let budget = Math.min(remaining, 2 + Math.floor(30 * r.next() ** 1.7));
    if (remaining - budget === 1) budget++;
    remaining -= budget;
    const turn: Turn = { prompt: g.prompt(), t, model: [] };
    t += r.range(2_000, 40_000);
    let mid = budget - 2;
    while (mid > 0) {
      const mt = newModelTurn(t);
      if (mid >= 1 && r.chance(0.45)) {
        mt.reasoning = g.reasoning(headings);
        mid--;
      }
      if (mid >= 1 && r.chance(0.2)) {
        mt.text = g.interim();
        mid--;
      }
      if (mid >= 2) {
        const want = r.chance(0.75) ? 1 : r.chance(0.7) ? 2 : 3;
        const n = Math.min(want, Math.floor(mid / 2));
        for (let i = 0; i < n; i++) {
          g.clock = t;
          const call = makeToolCall(g);
          call.t = t;
          t += call.durationMs + r.range(500, 8_000);
          mt.calls.push(call);
          mid -= 2;
        }
      }
      if (mt.calls.length === 0 && !mt.reasoning && !mt.text) {
        mt.reasoning = g.reasoning(headings);
        mid--;
      }
      turn.model.push(mt);
      t += r.range(1_000, 20_000);
    }
    g.clock = t;
    turn.model.push({ text: g.response(), calls: [], t });
    turns.push(turn);
    t += r.next() < 0.9 ? r.range(15_000, 600_000) : r.range(600_000, 7_200_000);
  }
  if (remaining === 1) {
    // One step left over (or a 1-step session): a reasoning block before the last answer.
    if (turns.length === 0) turns.push({ prompt: g.prompt(), t, model: [] });
    else {
      const last = turns[turns.length - 1].model;
      last.splice(last.length - 1, 0, {
        reasoning: g.reasoning(headings),
        calls: [],
        t: last[last.length - 1].t - 1_000,
      });
    }
  }

  placeNeedles(r, turns, plan.needles);
  for (const d of plan.distractors) {
    const turn = r.pick(turns);
    const last = turn.model[turn.model.length - 1];
    const answerFree = last?.text !== undefined && last.needle === undefined;
    if (turn.needle === undefined && (r.chance(0.4) || !answerFree)) turn.prompt += ` ${d}`;
    else if (answerFree) last.text += `\n\n${d}`;
  }
  if (plan.huge > 0) placeHuge(r, g, turns, plan.huge);

  return {
    agent: plan.agent,
    id: r.uuid(),
    project,
    branch: r.pick(project.branches),
    start: plan.start,
    end: t,
    turns,
    steps: plan.steps,
    r: new Random(plan.seed ^ 0x5bd1e995),
    g,
  };
}

function placeNeedles(r: Random, turns: Turn[], needles: PlacedNeedle[]): void {
  const free = turns.map((_, i) => i);
  r.shuffle(free);
  for (const n of needles) {
    const i = free.pop();
    if (i === undefined) return;
    const turn = turns[i];
    if (n.role === 'user') {
      turn.prompt = n.text;
      turn.needle = n.qid;
    } else {
      const last = turn.model[turn.model.length - 1];
      if (last === undefined) turn.model.push({ text: n.text, calls: [], t: turn.t + 5_000, needle: n.qid });
      else {
        last.text = n.text;
        last.needle = n.qid;
      }
    }
  }
}

function placeHuge(r: Random, g: TextGen, turns: Turn[], bytes: number): void {
  const withCalls = turns.flatMap((turn) => turn.model.filter((m) => m.calls.length > 0));
  if (withCalls.length === 0) return;
  const mt = r.pick(withCalls);
  const i = r.int(mt.calls.length);
  const big = hugeToolCall(g, bytes);
  big.t = mt.calls[i].t;
  mt.calls[i] = big;
}

/** The text of a needle step: the statement with a little of the conversation around it. */
export function needleText(g: TextGen, role: 'user' | 'assistant', statement: string): string {
  const r = g.r;
  if (role === 'user') {
    const lead = r.pick(['', '', 'one thing before you continue: ', 'fyi, ', 'also, ']);
    const tail = r.chance(0.5) ? ` ${g.fill(r.pick(T.user))}` : '';
    return `${lead}${statement}${tail}`;
  }
  const lead = r.chance(0.6) ? `${g.sentence(T.assistant)}\n\n` : '';
  const tail = r.chance(0.6) ? `\n\n${g.paragraph(T.assistant, r.range(1, 3))}` : '';
  return `${lead}${statement}${tail}`;
}

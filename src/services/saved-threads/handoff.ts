/**
 * Handoff: a short structured thread (Goal, Decisions, Files, Risks, Next) built from a session's
 * steps without an LLM, saved as `handoff:<source thread id>:<n>` and linked to its source.
 */
import { notFound } from '../../core/errors.js';
import { buildHandoff, type Handoff } from '../../core/handoff.js';
import {
  HANDOFF_SECTIONS,
  type HandoffHeader,
  renderHandoff,
  renderHandoffHeader,
  renderHandoffSection,
} from '../../core/handoff-render.js';
import type { Step } from '../../core/types.js';
import type { SavedThreadStore } from '../../ports/saved-thread-store.js';
import type { TranscriptStore } from '../../ports/transcript-store.js';
import { checkId, checkTitle, LIMITS } from './input.js';
import type { SavedThreadCore } from './service.js';

export interface HandoffInput {
  /** The session to hand off (an indexed transcript or a saved thread). */
  thread: string;
  title?: string;
}

export interface HandoffResult {
  /** The saved handoff thread: `handoff:<source>:<n>`. */
  id: string;
  title: string;
  source_thread: string;
  total_messages: number;
  sections: Handoff;
  markdown: string;
}

const PAGE = 1000;

/** Every step of a thread, in order, read page by page. */
export function readAllSteps(store: TranscriptStore, threadId: string): Step[] {
  const out: Step[] = [];
  let from = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const page = store.getSteps(threadId, from, Number.MAX_SAFE_INTEGER, PAGE);
    out.push(...page);
    if (page.length < PAGE) return out;
    from = page[page.length - 1].step + 1;
  }
}

export function createHandoff(deps: {
  store: TranscriptStore;
  saved: SavedThreadStore;
  core: SavedThreadCore;
}) {
  const { store, saved, core } = deps;
  return function handoff(input: HandoffInput): HandoffResult {
    const sourceId = checkId(input.thread, 'thread id');
    const source = store.getThread(sourceId);
    if (!source)
      throw notFound(`No thread "${sourceId}"; list threads with \`tapedeck threads\``, {
        thread_id: sourceId,
      });
    const steps = readAllSteps(store, sourceId);
    const sections = buildHandoff(steps, { project: source.project });
    const base = checkTitle(input.title) ?? `Handoff: ${source.title ?? source.id}`;
    const title = base.length > LIMITS.titleChars ? `${base.slice(0, LIMITS.titleChars - 1)}…` : base;
    const header: HandoffHeader = {
      title,
      thread: source.id,
      agent: source.agent,
      project: source.project,
      steps: source.stepCount,
      startedAt: source.startedAt,
      updatedAt: source.updatedAt,
    };
    const created = core.createOwn(() => {
      const prefix = `handoff:${sourceId}:`;
      const taken = saved
        .idsWithPrefix(prefix)
        .map((id) => Number(id.slice(prefix.length)))
        .filter((n) => Number.isInteger(n));
      const n = Math.max(0, ...taken) + 1;
      return {
        id: `${prefix}${n}`,
        title,
        agent: source.agent,
        sourceApp: 'tapedeck-handoff',
        project: source.project,
        space: source.space,
        parentId: source.id,
        metadata: { handoff_of: source.id, source_steps: source.stepCount },
        messages: [
          { role: 'system', text: renderHandoffHeader(header) },
          ...HANDOFF_SECTIONS.map((s) => ({
            role: 'system' as const,
            text: renderHandoffSection(sections, s),
          })),
        ],
      };
    });
    return {
      id: created.id,
      title,
      source_thread: source.id,
      total_messages: created.total_messages,
      sections,
      markdown: renderHandoff(sections, header),
    };
  };
}

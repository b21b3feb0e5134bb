/** Markdown for a handoff: one block per section, each item with the step it came from. */
import type { Handoff, HandoffFile, HandoffItem } from './handoff.js';

export interface HandoffHeader {
  title: string;
  /** Source thread id. */
  thread: string;
  agent?: string;
  project?: string;
  steps?: number;
  startedAt?: string;
  updatedAt?: string;
}

export const HANDOFF_SECTIONS = ['goal', 'decisions', 'files', 'risks', 'next'] as const;
export type HandoffSection = (typeof HANDOFF_SECTIONS)[number];

const HEADINGS: Record<HandoffSection, string> = {
  goal: 'Goal',
  decisions: 'Decisions',
  files: 'Files',
  risks: 'Risks',
  next: 'Next',
};

const item = (i: HandoffItem) => `- ${i.text} (#${i.step})`;
const file = (f: HandoffFile) => `- \`${f.path}\`${f.edits > 1 ? ` (${f.edits} edits)` : ''}`;

/** The heading line and the context line under it. */
export function renderHandoffHeader(h: HandoffHeader): string {
  const day = (ts?: string) => ts?.slice(0, 10);
  const span = [day(h.startedAt), day(h.updatedAt)].filter(Boolean);
  const facts = [
    h.agent,
    h.project,
    h.steps !== undefined ? `${h.steps} steps` : undefined,
    span.length ? [...new Set(span)].join('…') : undefined,
  ].filter(Boolean);
  return `# ${h.title}\n\nFrom \`${h.thread}\`${facts.length ? ` (${facts.join(', ')})` : ''}; #N is a step there.`;
}

/** One section as Markdown (`## Goal` and its list, or "none found"). */
export function renderHandoffSection(handoff: Handoff, section: HandoffSection): string {
  const lines = section === 'files' ? handoff.files.map(file) : handoff[section].map(item);
  return `## ${HEADINGS[section]}\n${lines.length ? lines.join('\n') : '- none found'}`;
}

export function renderHandoff(handoff: Handoff, header: HandoffHeader): string {
  return [renderHandoffHeader(header), ...HANDOFF_SECTIONS.map((s) => renderHandoffSection(handoff, s))].join(
    '\n\n',
  );
}

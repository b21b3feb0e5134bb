/**
 * The working-memory briefing (pure): its sections, how items render as Markdown, and how a
 * person's edited Markdown is read back into sections. No I/O; the service supplies the items.
 */
import { invalidInput } from './errors.js';

export const WM_SECTIONS = ['focus', 'decisions', 'open-loops', 'sessions'] as const;
export type WmSectionName = (typeof WM_SECTIONS)[number];

export const WM_HEADINGS: Record<WmSectionName, string> = {
  focus: 'Focus',
  decisions: 'Recent decisions',
  'open-loops': 'Open loops',
  sessions: 'Recent sessions',
};

/** What an empty section says (kept short: the briefing is read by agents that pay per token). */
const EMPTY: Record<WmSectionName, string> = {
  focus: '- no activity in the last 7 days',
  decisions: '- none recorded in the last 7 days',
  'open-loops': '- none',
  sessions: '- none in the last 7 days',
};

/** One line of a section. Generated items always carry a deep link; a person's lines may not. */
export interface WmItem {
  text: string;
  /** `tapedeck://memory/<id>` or `tapedeck://thread/<id>[#step]`; null in a person's text without one. */
  link: string | null;
  /** Where it came from. */
  source: 'project' | 'memory' | 'session' | 'edit';
  /** The record's time (ISO), when it has one. */
  at: string | null;
  /**
   * The project the item is about (a session's or memory's directory), so a bundle for one
   * project can leave out the others'; null or absent when it is about no one project.
   */
  project?: string | null;
}

/** The marker on the heading of a section a person edited (stripped again when edits are read). */
export const EDITED_MARK = ' (edited)';

/** `- text <link>`: a CommonMark autolink, so the custom scheme stays clickable and cheap. */
export function renderItem(item: WmItem): string {
  return item.link ? `- ${item.text} <${item.link}>` : `- ${item.text}`;
}

/** A section's body as generated: its items, or the line that says it is empty. */
export function renderGenerated(section: WmSectionName, items: readonly WmItem[]): string {
  return items.length ? items.map(renderItem).join('\n') : EMPTY[section];
}

export function renderSection(section: WmSectionName, body: string, edited: boolean): string {
  return `## ${WM_HEADINGS[section]}${edited ? EDITED_MARK : ''}\n${body}`;
}

export function renderTitle(date: string, space: string): string {
  return `# Working memory · ${date} · space ${space}`;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\(edited\)\s*$/, '')
    .replace(/[^a-z]+/g, ' ')
    .trim();

/** A section named by its id (`open-loops`) or heading (`Open loops`, any case); throws otherwise. */
export function sectionOf(name: string): WmSectionName {
  const n = norm(String(name ?? ''));
  for (const s of WM_SECTIONS) {
    if (n === norm(s) || n === norm(WM_HEADINGS[s]) || n === norm(WM_HEADINGS[s]).replace(/^recent /, ''))
      return s;
  }
  throw invalidInput(
    `Unknown working-memory section "${name}"; the sections are ${WM_SECTIONS.map((s) => `${s} (${WM_HEADINGS[s]})`).join(', ')}`,
  );
}

/**
 * The `## ` sections of an edited briefing, by section, bodies trimmed. Text before the first
 * `## ` heading (the `#` title) is ignored; an unknown heading or one given twice is an error,
 * so a typo never silently drops a person's words.
 */
export function parseSections(markdown: string): Map<WmSectionName, string> {
  const out = new Map<WmSectionName, string>();
  let current: WmSectionName | null = null;
  let lines: string[] = [];
  let fence = false;
  const flush = () => {
    if (current) out.set(current, lines.join('\n').trim());
  };
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const m = fence ? null : /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) {
      flush();
      current = sectionOf(m[1]);
      if (out.has(current)) throw invalidInput(`The section "${WM_HEADINGS[current]}" appears twice`);
      lines = [];
    } else if (current) lines.push(line);
  }
  flush();
  if (out.size === 0)
    throw invalidInput(
      `No section found: start each with a heading such as "## ${WM_HEADINGS.focus}" (or use --section)`,
    );
  return out;
}

/**
 * A person's section text as items: each top-level line (a list item or paragraph line) with its
 * indented continuation lines, and the first tapedeck:// link in it, if any.
 */
export function itemsOfText(body: string): WmItem[] {
  const blocks: string[] = [];
  for (const line of body.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s+\S/.test(line) && blocks.length) blocks[blocks.length - 1] += `\n${line}`;
    else blocks.push(line);
  }
  return blocks.map((b) => ({
    text: b.replace(/^(?:[-*+]|\d+[.)])\s+/, ''),
    link: /tapedeck:\/\/[^\s<>)]+/.exec(b)?.[0] ?? null,
    source: 'edit' as const,
    at: null,
  }));
}

/** One line, squashed, cut on a word boundary with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const s = text.replace(/\s+/g, ' ').trim();
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1).replace(/\s+\S*$/, '');
  return `${cut || s.slice(0, max - 1)}…`;
}

/** YYYY-MM-DD of an ISO time (UTC), or '' when there is none. */
export const dayOf = (iso: string | null | undefined) => (iso ? iso.slice(0, 10) : '');

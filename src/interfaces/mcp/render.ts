/**
 * Compact text for agents, who pay for every token: search hits grouped by thread (its title and
 * date said once), each hit one line with the link `read` expands, and capped at
 * {@link HIT_TOKENS} tokens by the repo's token counter.
 */
import { memoryLink, threadLink } from '../../core/memory.js';
import { squash } from '../../core/text.js';
import { estimateTokens } from '../../core/token-budget.js';
import type { Memory, MemoryDetail, SearchHit as MemoryHit } from '../../services/memories.js';
import type { ResolvedRule, Rule } from '../../services/rules.js';
import type { SearchHit, StepRecord, ThreadRecord } from '../../services/transcripts.js';

/** The most a search hit's line costs by default (estimateTokens). */
export const HIT_TOKENS = 60;

const day = (ts: string | null | undefined) => (ts ? ts.slice(0, 10) : '?');
const base = (p: string | null | undefined) => (p ? (p.split('/').filter(Boolean).at(-1) ?? p) : '?');

/**
 * `head` + `text`, cut so the whole line stays within `tokens`. The cut keeps the first «match»
 * in view: when the match sits late in the text, the start is dropped instead of the end.
 */
export function fitLine(head: string, text: string, tokens = HIT_TOKENS): string {
  const line = `${head}${text}`;
  if (estimateTokens(line) <= tokens) return line;
  const room = Math.max(0, tokens * 4 - head.length - 2);
  const mark = text.indexOf('«');
  const start = mark > room / 3 ? mark - Math.floor(room / 3) : 0;
  // The snippet may already open or close with an ellipsis: one is enough.
  const cut = text
    .slice(start, start + room - (start > 0 ? 1 : 0))
    .replace(/^…+/, '')
    .replace(/…+$/, '')
    .trimEnd();
  return `${head}${start > 0 ? '…' : ''}${cut}…`;
}

/** The most a thread's head line (title, date, agent, project) costs. */
const HEAD_TOKENS = 24;

/**
 * Session hits grouped by thread in rank order of each thread's best hit. A hit costs at most
 * {@link HIT_TOKENS} with its share of the thread's head: a thread with one hit gets a shorter
 * snippet than one whose head is shared by three.
 */
export function renderStepHits(hits: SearchHit[]): string[] {
  const groups = new Map<string, SearchHit[]>();
  for (const h of hits) groups.set(h.thread, [...(groups.get(h.thread) ?? []), h]);
  const out: string[] = [];
  for (const [thread, group] of groups) {
    const first = group[0];
    const head = fitLine('', `${first.title ?? 'untitled'}`, HEAD_TOKENS - 10);
    // The agent is in every hit's link (`<agent>:<session>`), so the head does not repeat it.
    const line = `${head} (${day(first.timestamp)}, ${base(first.project)})`;
    out.push(line);
    const each = Math.min(
      HIT_TOKENS,
      Math.floor((HIT_TOKENS * group.length - estimateTokens(line)) / group.length),
    );
    for (const h of group) {
      const date = day(h.timestamp) === day(first.timestamp) ? '' : ` ${day(h.timestamp)}`;
      out.push(fitLine(`- ${threadLink(thread, h.step)} ${h.role}${date}: `, squash(h.snippet), each));
    }
  }
  return out;
}

/** Memory hits, one line each. */
export function renderMemoryHits(hits: MemoryHit[]): string[] {
  return hits.map((m) => {
    // A title derived from the content is its start: show the content once.
    const title = m.title.replace(/…$/, '');
    const content = squash(m.content);
    return fitLine(
      `- ${m.link} ${m.unit_type} ${day(m.updated_at)}${m.status === 'active' ? '' : ` ${m.status}`}: `,
      content.startsWith(title) ? content : `${m.title}. ${content}`,
    );
  });
}

/** Recent sessions, one line each. */
export function renderThreads(threads: ThreadRecord[]): string[] {
  return threads.map((t) =>
    fitLine(
      `- ${threadLink(t.id)} ${day(t.updatedAt)} ${base(t.project)} ${t.stepCount} steps — `,
      t.title ?? 'untitled',
    ),
  );
}

/** A window or page of a thread's steps, in full (each step capped by the caller). */
export function renderSteps(thread: ThreadRecord, steps: StepRecord[], next: number | null): string {
  const head = `${thread.id} — ${thread.title ?? 'untitled'} (${thread.agent}, ${thread.project ?? 'unknown project'}, ${thread.stepCount} steps)\nsource: ${thread.source}`;
  const body = steps.map(
    (s) =>
      `#${s.step} ${s.role}/${s.kind}${s.tool ? ` ${s.tool}` : ''} ${s.timestamp ?? ''} (line ${s.source.line})\n${s.text}`,
  );
  return [head, ...body, next !== null ? `(more: from=${next})` : ''].filter(Boolean).join('\n\n');
}

/** A memory's one-line head: link, type, importance, date, space, status, labels, title. */
export function memoryHead(m: Memory): string {
  const labels = m.labels.length ? ` [${m.labels.join(', ')}]` : '';
  const status = m.status === 'active' ? '' : ` ${m.status.toUpperCase()}`;
  return `${m.link} ${m.unit_type} imp=${m.importance} ${day(m.updated_at)} ${m.space}${status}${labels} — ${m.title}`;
}

/** A memory in full, with where it came from and what it replaced or was replaced by. */
export function renderMemory(m: MemoryDetail): string {
  const lines = [memoryHead(m)];
  if (m.project) lines.push(`project: ${m.project}`);
  if (m.provenance?.link)
    lines.push(
      `from: ${m.provenance.link}${m.provenance.step_to !== m.provenance.step_from ? `-${m.provenance.step_to}` : ''}`,
    );
  if (m.provenance?.source) lines.push(`source: ${m.provenance.source}`);
  if (m.event_start) lines.push(`event: ${day(m.event_start)}${m.event_end ? ` → ${day(m.event_end)}` : ''}`);
  if (m.superseded_by) lines.push(`superseded by: ${memoryLink(m.superseded_by)}`);
  if (m.supersedes.length) lines.push(`supersedes: ${m.supersedes.join(', ')}`);
  lines.push(m.content);
  return lines.join('\n');
}

/** A rule, numbered; a resolved one says why it applies. */
export function renderRule(r: Rule | ResolvedRule, i: number): string {
  const why = 'reason' in r ? ` (applies: ${r.reason})` : '';
  const off = r.enabled ? '' : ' DISABLED';
  return `${i + 1}. [${r.id}] ${r.scope} p=${r.priority}${off}${why}\n${r.body}`;
}

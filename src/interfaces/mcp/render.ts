/** Compact text renderings for agents: a search hit well under 120 tokens. */
import type { SearchResult, StepRecord, ThreadRecord } from '../../services/transcripts.js';

const when = (ts: string | null | undefined) => (ts ? ts.slice(0, 10) : '?');
const base = (p: string | null | undefined) => (p ? (p.split('/').filter(Boolean).at(-1) ?? p) : '?');

export function renderHits(r: SearchResult): string {
  if (r.hits.length === 0)
    return `No matches for "${r.query}". Try other words, fewer filters, or list_conversations.`;
  const lines = r.hits.map(
    (h, i) =>
      `[${i + 1}] ${h.thread}#${h.step} ${h.role}/${h.kind} ${when(h.timestamp)} ${base(h.project)} — ${h.title ?? ''}\n${h.snippet}`,
  );
  lines.push('(get_steps with thread and step shows the surrounding steps)');
  return lines.join('\n');
}

export function renderSteps(thread: ThreadRecord, steps: StepRecord[], next: number | null): string {
  const head = `${thread.id} — ${thread.title ?? 'untitled'} (${thread.agent}, ${thread.project ?? 'unknown project'}, ${thread.stepCount} steps)\nsource: ${thread.source}`;
  const body = steps.map(
    (s) =>
      `#${s.step} ${s.role}/${s.kind}${s.tool ? ` ${s.tool}` : ''} ${s.timestamp ?? ''} (line ${s.source.line})\n${s.text}`,
  );
  return [head, ...body, next !== null ? `(more: from=${next})` : ''].filter(Boolean).join('\n\n');
}

export function renderThreads(threads: ThreadRecord[]): string {
  if (threads.length === 0) return 'No conversations indexed.';
  return threads
    .map(
      (t) =>
        `${t.id} ${when(t.updatedAt)} ${t.agent} ${base(t.project)} ${t.stepCount} steps — ${t.title ?? ''}`,
    )
    .join('\n');
}

/** Human-readable memories (the `--json` forms are the service's own shapes). */
import type { Memory, MemoryDetail, MemorySearchResult } from '../../../services/memories.js';
import { tildify } from '../output.js';
import { bold, dim } from '../style.js';

const day = (ts: string | null | undefined) => (ts ? ts.slice(0, 10) : '—');
const short = (text: string, max: number) => {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

export function formatMemoryLine(m: Memory): string {
  const labels = m.labels.length ? dim(` [${m.labels.join(', ')}]`) : '';
  const status = m.status === 'active' ? '' : ` (${m.status})`;
  return `${dim(m.id.slice(0, 8))} ${day(m.updated_at)} ${m.unit_type.padEnd(10)} ${bold(m.title)}${status}${labels}`;
}

export function formatMemory(m: MemoryDetail): string {
  const lines = [
    bold(m.title),
    dim(
      `${m.id} · ${m.unit_type} · importance ${m.importance} · confidence ${m.confidence} · space ${m.space} · ${m.status}`,
    ),
  ];
  if (m.labels.length) lines.push(`labels: ${m.labels.join(', ')}`);
  if (m.project) lines.push(`project: ${tildify(m.project)}`);
  const p = m.provenance;
  if (p?.thread) {
    const range =
      p.step_from === null
        ? ''
        : p.step_from === p.step_to
          ? ` (step ${p.step_from})`
          : ` (steps ${p.step_from}-${p.step_to})`;
    lines.push(`from: ${p.link}${range}`);
  }
  if (p?.source) lines.push(`source: ${p.source}`);
  if (m.event_start || m.event_end) lines.push(`event: ${day(m.event_start)} → ${day(m.event_end)}`);
  lines.push(
    dim(
      `recorded ${m.created_at} · updated ${m.updated_at} · valid from ${m.valid_from}${m.valid_to ? ` to ${m.valid_to}` : ''}`,
    ),
  );
  if (m.superseded_by) lines.push(`superseded by: tapedeck://memory/${m.superseded_by}`);
  if (m.supersedes.length)
    lines.push(`supersedes: ${m.supersedes.map((id) => `tapedeck://memory/${id}`).join(', ')}`);
  if (m.forgotten_at) lines.push(`forgotten ${m.forgotten_at} (tapedeck memory restore ${m.id})`);
  lines.push('', m.content);
  return lines.join('\n');
}

export function formatMemorySearch(r: MemorySearchResult): string {
  if (r.hits.length === 0) return `No memories match "${r.query}" (${r.took_ms} ms).`;
  const lines = [
    `${r.hits.length} memor${r.hits.length === 1 ? 'y' : 'ies'} for "${r.query}" (${r.took_ms} ms)`,
    '',
  ];
  r.hits.forEach((h, i) => {
    lines.push(
      `${i + 1}. ${bold(h.title)}${h.status === 'active' ? '' : ` (${h.status})`}`,
      `   ${dim(`${h.unit_type} · importance ${h.importance} · ${day(h.updated_at)} · ${h.space}${h.labels.length ? ` · ${h.labels.join(', ')}` : ''} · score ${h.score}`)}`,
      `   ${short(h.content, 240)}`,
      `   ${dim(h.link)}`,
      '',
    );
  });
  return lines.join('\n').trimEnd();
}

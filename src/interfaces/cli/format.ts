/** Human-readable rendering of results (the `--json` forms are the services' own shapes). */
import type {
  IndexSummary,
  SearchHit,
  SearchResult,
  StepRecord,
  ThreadRecord,
} from '../../services/transcripts.js';
import { tildify } from './output.js';
import { bold, colorEnabled, dim } from './style.js';

const day = (ts: string | null | undefined) => (ts ? ts.slice(0, 16).replace('T', ' ') : '—');
const projectName = (p: string | null | undefined) => (p ? p.split('/').filter(Boolean).at(-1) : '');

/**
 * Search hits (or sessions, with `--by thread`) for people; `store` (e.g. ` --db <file>`) is added
 * to each printed `tapedeck show`; `explain` adds each hit's score components.
 */
export function formatSearch(r: SearchResult, store = '', { explain = false } = {}): string {
  if (r.hits.length === 0) return `No matches for "${r.query}" (${r.took_ms} ms).`;
  const mark = (s: string) => (colorEnabled() ? s.replace(/«([^»]*)»/g, (_m, w) => bold(w)) : s);
  const parts = (h: SearchHit) =>
    h.explain
      ? `   ${dim(
          `score ${h.score} = ${Object.entries(h.explain)
            .map(([k, v]) => `${k} ${v}`)
            .join(' + ')}`,
        )}`
      : null;
  const hitLines = (h: SearchHit, head: string | null) =>
    [
      head,
      `   ${dim(`${head ? `${h.agent} · ${projectName(h.project) || '—'} · ` : ''}${day(h.timestamp)} · ${h.role} ${h.kind}`)}`,
      `   ${mark(h.snippet)}`,
      explain ? parts(h) : null,
      `   ${dim(`tapedeck show ${h.thread} --step ${h.step}${store}   ${tildify(h.source.path)}:${h.source.line}${h.source_gone ? `  (source ${h.source_gone.reason} ${day(h.source_gone.at)})` : ''}`)}`,
      '',
    ].filter((l): l is string => l !== null);
  const lines: string[] = [];
  if (r.threads) {
    lines.push(
      `${r.threads.length} thread${r.threads.length === 1 ? '' : 's'} for "${r.query}" (${r.took_ms} ms)`,
      '',
    );
    r.threads.forEach((t, i) => {
      lines.push(
        `${i + 1}. ${bold(t.title ?? t.thread)}`,
        `   ${dim(`${t.agent} · ${projectName(t.project) || '—'} · ${day(t.started_at)} – ${day(t.updated_at)} · score ${t.score}`)}`,
        '',
      );
      for (const h of t.hits) lines.push(...hitLines(h, null).map((l) => (l ? `  ${l}` : l)));
    });
  } else {
    lines.push(
      `${r.hits.length} hit${r.hits.length === 1 ? '' : 's'} for "${r.query}" (${r.took_ms} ms)`,
      '',
    );
    r.hits.forEach((h, i) => {
      lines.push(...hitLines(h, `${i + 1}. ${bold(h.title ?? h.thread)}`));
    });
  }
  if (explain && r.reading) {
    const d = r.reading.date_span;
    lines.push(
      dim(
        `read as: terms [${r.reading.terms.join(', ')}]${d ? ` · dates ${d.from.slice(0, 10)}..${d.to.slice(0, 10)} ("${d.text}")` : ''}${r.reading.role ? ` · role ${r.reading.role}` : ''}${r.reading.names.length ? ` · names ${r.reading.names.join(', ')}` : ''}${r.reading.related?.length ? ` · related ${r.reading.related.map((x) => `${x.word} (${x.for})`).join(', ')}` : ''}`,
      ),
    );
  }
  return lines.join('\n').trimEnd();
}

export function formatSteps(thread: ThreadRecord, steps: StepRecord[], focus?: number): string {
  const lines = [
    bold(thread.title ?? thread.id),
    dim(
      `${thread.id} · ${thread.agent} · ${thread.project ?? 'unknown project'} · ${thread.stepCount} steps`,
    ),
    dim(`${tildify(thread.source)}${goneNote(thread)}`),
    '',
  ];
  for (const s of steps) {
    const head = `#${s.step} ${s.role} ${s.kind}${s.tool ? ` ${s.tool}` : ''} · ${day(s.timestamp)} · line ${s.source.line}`;
    lines.push(s.step === focus ? bold(`▶ ${head}`) : dim(`  ${head}`));
    lines.push(
      s.text
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n'),
      '',
    );
  }
  return lines.join('\n').trimEnd();
}

/** "  (source deleted 2026-12-01; kept, `tapedeck restore` …)" for a thread whose transcript went away. */
function goneNote(t: ThreadRecord): string {
  if (!t.sourceGone) return '';
  return `  (source ${t.sourceGone.reason} ${day(t.sourceGone.at)}; steps kept — \`tapedeck restore ${t.id}\`)`;
}

export function formatThreads(threads: ThreadRecord[]): string {
  if (threads.length === 0) return 'No threads indexed yet. Run `tapedeck index`.';
  return threads
    .map(
      (t) =>
        `${dim(day(t.updatedAt))}  ${t.agent.padEnd(11)} ${String(t.stepCount).padStart(5)} steps  ${bold(t.title ?? '(untitled)')}\n${' '.repeat(18)}${dim(`${t.id}  ${projectName(t.project) ?? ''}${goneNote(t)}`)}`,
    )
    .join('\n');
}

export function formatIndexSummary(s: IndexSummary): string {
  const f = s.files;
  const lines = [
    `Indexed in ${s.ms} ms: ${f.seen} files seen, ${f.new} new, ${f.updated} updated, ${f.unchanged} unchanged, ${f.removed} gone (kept), ${f.skipped} skipped; ${s.steps.written} steps written.`,
  ];
  for (const [agent, a] of Object.entries(s.agents)) {
    if (a && a.seen + a.removed > 0)
      lines.push(
        `  ${agent.padEnd(12)} ${a.seen} files, ${a.steps} steps written${a.issues ? `, ${a.issues} issues` : ''}`,
      );
  }
  if (s.issues) lines.push(`${s.issues} parse issue(s) recorded; see \`tapedeck doctor\`.`);
  for (const k of s.skipped.slice(0, 10)) lines.push(`  skipped ${tildify(k.path)}: ${k.reason}`);
  if (s.skipped.length > 10) lines.push(`  … and ${s.skipped.length - 10} more skipped`);
  return lines.join('\n');
}

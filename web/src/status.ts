/**
 * Status: per-agent counts, index freshness, parse issues with file:line, the hook queue, and
 * whatever else the server reports about the store (archive size, retention warnings) — shown
 * as it comes, so new fields appear without a page change.
 */
import { get } from './api.js';
import { fmtTime, h, put } from './dom.js';
import type { Cleanup } from './main.js';

interface Health {
  version: string;
  store: { backend: string; path: string };
  index: {
    files: number;
    threads: number;
    steps: number;
    last_updated: string | null;
    last_indexed_at: string | null;
  };
  uptime_s: number;
}
interface Doctor {
  ok: boolean;
  problems: string[];
  issues: { total: number; recent: { path: string; line?: number; message: string; at: string }[] };
  stats: Record<string, unknown> & {
    per_agent: Record<string, { threads: number; steps: number; files: number; last_updated: string | null }>;
    db_bytes: number;
  };
  queue: Record<string, unknown> | null;
  archive?: Archive;
  retention?: Retention;
  [extra: string]: unknown;
}

/** What the history feature reports (doctor): the transcript archive and Claude Code's cleanup. */
interface Archive {
  enabled: boolean;
  dir?: string;
  files?: number;
  bytes?: number;
  original_bytes?: number;
}
interface Retention {
  cleanup_period_days: number;
  configured: boolean;
  settings: string;
  sessions: number;
  due_within_7_days: number;
  archived: number;
  not_archived: string[];
  problem?: string;
}

const KNOWN_STATS = new Set([
  'threads',
  'steps',
  'files',
  'issues',
  'per_agent',
  'db_bytes',
  'path',
  'backend',
]);
const KNOWN_DOCTOR = new Set(['ok', 'problems', 'issues', 'stats', 'index', 'queue', 'archive', 'retention']);
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

export function renderStatus(main: HTMLElement): Cleanup {
  const box = h('div', {}, h('p', { class: 'muted' }, 'Loading…'));
  put(main, h('h1', {}, 'Status'), box);
  Promise.all([get<Health>('/health'), get<Doctor>('/v1/doctor')])
    .then(([health, doc]) => {
      const agents = Object.entries(doc.stats.per_agent);
      const extra = [
        ...Object.entries(doc.stats).filter(([k]) => !KNOWN_STATS.has(k)),
        ...Object.entries(doc).filter(([k]) => !KNOWN_DOCTOR.has(k)),
      ];
      put(
        box,
        h(
          'section',
          { class: 'card' },
          h('h2', {}, 'Store and index'),
          h(
            'p',
            {},
            doc.ok
              ? h('span', { class: 'badge ok' }, 'healthy')
              : h('span', { class: 'badge warn' }, `problems: ${doc.problems.join('; ')}`),
          ),
          h(
            'dl',
            { class: 'facts' },
            h('dt', {}, 'Version'),
            h('dd', {}, health.version),
            h('dt', {}, 'Store'),
            h(
              'dd',
              {},
              `${health.store.backend} · `,
              h('code', {}, health.store.path),
              ` · ${mb(doc.stats.db_bytes)}`,
            ),
            h('dt', {}, 'Indexed'),
            h(
              'dd',
              {},
              `${health.index.threads} sessions, ${health.index.steps} steps from ${health.index.files} files`,
            ),
            h('dt', {}, 'Newest step'),
            h('dd', {}, fmtTime(health.index.last_updated)),
            h('dt', {}, 'Last index run (this server)'),
            h(
              'dd',
              {},
              health.index.last_indexed_at
                ? fmtTime(health.index.last_indexed_at)
                : 'not since the server started',
            ),
          ),
        ),
        h(
          'section',
          { class: 'card' },
          h('h2', {}, 'Agents'),
          h(
            'table',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['agent', 'sessions', 'steps', 'files', 'last activity'].map((c) =>
                  h('th', { scope: 'col' }, c),
                ),
              ),
            ),
            h(
              'tbody',
              {},
              agents.map(([a, s]) =>
                h(
                  'tr',
                  {},
                  h('th', { scope: 'row' }, a),
                  h('td', {}, String(s.threads)),
                  h('td', {}, String(s.steps)),
                  h('td', {}, String(s.files)),
                  h('td', {}, fmtTime(s.last_updated)),
                ),
              ),
            ),
          ),
        ),
        doc.archive || doc.retention || extra.length
          ? h(
              'section',
              { class: 'card' },
              h('h2', {}, 'Archive and retention'),
              h(
                'dl',
                { class: 'facts' },
                doc.archive ? [h('dt', {}, 'Archive'), h('dd', {}, archiveText(doc.archive))] : null,
                doc.retention
                  ? [h('dt', {}, 'Claude Code retention'), h('dd', {}, retentionView(doc.retention))]
                  : null,
                extra.map(([k, v]) => [h('dt', {}, k), h('dd', {}, describe(v))]),
              ),
            )
          : null,
        h(
          'section',
          { class: 'card' },
          h('h2', {}, `Parse issues (${doc.issues.total})`),
          doc.issues.recent.length === 0
            ? h('p', { class: 'muted' }, 'No parse issues.')
            : h(
                'ul',
                { class: 'issues' },
                doc.issues.recent.map((i) =>
                  h('li', {}, h('code', {}, `${i.path}${i.line ? `:${i.line}` : ''}`), ` ${i.message}`),
                ),
              ),
        ),
        h(
          'section',
          { class: 'card' },
          h('h2', {}, 'Hook queue'),
          doc.queue
            ? h(
                'dl',
                { class: 'facts' },
                Object.entries(doc.queue)
                  .filter(([k]) => k !== 'items')
                  .map(([k, v]) => [h('dt', {}, k), h('dd', {}, describe(v))]),
              )
            : h('p', { class: 'muted' }, 'This server does not report a queue.'),
        ),
      );
    })
    .catch((e: Error) => put(box, h('p', {}, `Could not load the status: ${e.message}`)));
  return undefined;
}

/** A value the page has no special view for: numbers and text as they are, objects as key: value. */
function describe(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return v.length ? v.map(describe).join('; ') : 'none';
  return Object.entries(v)
    .map(([k, x]) => `${k}: ${typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x)}`)
    .join(', ');
}

function archiveText(a: Archive): string {
  if (!a.enabled) return 'off — a deleted transcript cannot be restored';
  return `${a.files ?? 0} transcripts, ${mb(a.bytes ?? 0)} on disk (of ${mb(a.original_bytes ?? 0)})${a.dir ? ` in ${a.dir}` : ''}`;
}

/** Claude Code deletes old sessions; say when, how many soon, and which are not archived (a warning). */
function retentionView(r: Retention): HTMLElement {
  const lost = r.not_archived.length;
  return h(
    'div',
    {},
    `Deletes sessions after ${r.cleanup_period_days} days (${r.configured ? 'set' : 'default'} in `,
    h('code', {}, r.settings),
    `); ${r.due_within_7_days} of ${r.sessions} due within 7 days, ${r.archived} of them archived.`,
    lost ? h('p', { class: 'badge warn' }, `${lost} due session(s) are not archived and will be lost`) : null,
    lost
      ? h(
          'ul',
          { class: 'issues' },
          r.not_archived.map((p) => h('li', {}, h('code', {}, p))),
        )
      : null,
    r.problem ? h('p', { class: 'badge warn' }, r.problem) : null,
  );
}

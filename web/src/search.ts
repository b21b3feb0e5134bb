/** Search as you type over every session, with filters and the ranking's explanation on demand. */
import { ApiError, get, type Hit, type SearchResult } from './api.js';
import { agentSelect, basename, debounce, field, fmtTime, h, marked, put } from './dom.js';
import type { Cleanup } from './main.js';

const ROLES = ['user', 'assistant', 'tool', 'system'];

/** `#/session/<id>?step=N`: the viewer opens the thread at that step. */
export const sessionHref = (thread: string, step?: number) =>
  `#/session/${encodeURIComponent(thread)}${step === undefined ? '' : `?step=${step}`}`;

export function renderSearch(main: HTMLElement, _rest: string[], params: URLSearchParams): Cleanup {
  const q = h('input', {
    type: 'search',
    name: 'q',
    value: params.get('q') ?? '',
    autocomplete: 'off',
    placeholder: 'why did we drop the redis cache?',
  });
  const agent = agentSelect(params.get('agent') ?? '');
  const project = h('input', {
    type: 'text',
    name: 'project',
    value: params.get('project') ?? '',
    placeholder: '/home/me/repo',
  });
  const since = h('input', { type: 'date', name: 'since', value: params.get('since') ?? '' });
  const until = h('input', { type: 'date', name: 'until', value: params.get('until') ?? '' });
  const role = h(
    'select',
    { name: 'role' },
    h('option', { value: '' }, 'any role'),
    ROLES.map((r) => h('option', { value: r, selected: params.get('role') === r }, r)),
  );
  const status = h('p', { class: 'muted', role: 'status', 'aria-live': 'polite' });
  const results = h('ol', { class: 'hits', 'aria-label': 'Search results' });

  let inFlight: AbortController | undefined;
  let seq = 0;
  let lastInput = 0;
  async function run(): Promise<void> {
    const filters = {
      q: q.value.trim(),
      agent: agent.value,
      project: project.value.trim(),
      since: since.value,
      until: until.value,
      role: role.value,
    };
    // Keep the search in the address (back/forward and reload return to it) without re-rendering.
    const qs = new URLSearchParams(
      Object.entries(filters).filter(([, v]) => v) as [string, string][],
    ).toString();
    history.replaceState(null, '', `#/search${qs ? `?${qs}` : ''}`);
    inFlight?.abort();
    if (!filters.q) {
      put(results);
      status.textContent = 'Type to search every session.';
      return;
    }
    const mine = ++seq;
    const t0 = lastInput || performance.now();
    lastInput = 0;
    inFlight = new AbortController();
    try {
      const r = await get<SearchResult>(
        '/v1/search',
        { ...filters, limit: 20, explain: true },
        inFlight.signal,
      );
      if (mine !== seq) return;
      put(results, r.hits.map(hitItem));
      const ms = performance.now() - t0;
      status.textContent = r.hits.length
        ? `${r.hits.length} hit${r.hits.length === 1 ? '' : 's'} (${r.took_ms} ms on the server)`
        : 'No hits.';
      if (r.reading) status.textContent += ` ${readingText(r.reading)}`;
      // For the benchmark: from the last keystroke (typing stopped) to results on screen.
      main.dataset.searchMs = ms.toFixed(1);
      main.dataset.searchSeq = String(mine);
      main.dataset.searchQ = filters.q;
    } catch (e) {
      if ((e as Error).name === 'AbortError' || mine !== seq) return;
      put(results);
      status.textContent = e instanceof ApiError ? e.message : `Search failed: ${(e as Error).message}`;
    }
  }
  // A short pause: a search costs tens of ms on the server, and a newer one aborts the older.
  const later = debounce(run, 25);
  for (const el of [q, project])
    el.addEventListener('input', () => {
      lastInput = performance.now();
      later();
    });
  for (const el of [agent, since, until, role]) el.addEventListener('change', run);

  put(
    main,
    h('h1', {}, 'Search'),
    h(
      'form',
      {
        class: 'search-form',
        role: 'search',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void run();
        },
      },
      h('div', { class: 'grow' }, field('Search sessions', q)),
      h(
        'div',
        { class: 'filters' },
        field('Agent', agent),
        field('Project', project),
        field('From', since),
        field('To', until),
        field('Role', role),
      ),
    ),
    status,
    results,
  );
  q.focus();
  void run();
  return () => inFlight?.abort();
}

function hitItem(hit: Hit): HTMLElement {
  return h(
    'li',
    { class: 'hit' },
    h('a', { class: 'hit-title', href: sessionHref(hit.thread, hit.step) }, hit.title || hit.thread),
    h(
      'div',
      { class: 'meta' },
      h('span', { class: `badge agent-${hit.agent}` }, hit.agent),
      h('span', { title: hit.project ?? '' }, basename(hit.project)),
      h('span', {}, fmtTime(hit.timestamp)),
      h('span', { class: `role role-${hit.role}` }, `${hit.role} · ${hit.kind}`),
      h('span', { class: 'muted' }, `step ${hit.step}`),
    ),
    h('p', { class: 'snippet' }, marked(hit.snippet)),
    h(
      'div',
      { class: 'meta' },
      h('code', { class: 'prov' }, `${hit.source.path}:${hit.source.line}`),
      hit.source_gone
        ? h('span', { class: 'badge warn' }, `file ${hit.source_gone.reason} ${fmtTime(hit.source_gone.at)}`)
        : null,
    ),
    explainDetails(hit),
  );
}

/** "Why this hit": the ranking's components when the API sends them, the score otherwise. */
function explainDetails(hit: Hit): HTMLElement {
  const rows: [string, string][] = [['score', String(hit.score)]];
  const flat = (prefix: string, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k, x] of Object.entries(v)) flat(prefix ? `${prefix}.${k}` : k, x);
    else rows.push([prefix, typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : JSON.stringify(v)]);
  };
  if (hit.explain !== undefined) flat('', hit.explain);
  return h(
    'details',
    { class: 'explain' },
    h('summary', {}, 'Why this hit'),
    hit.explain === undefined
      ? h('p', { class: 'muted' }, 'The server gave only the score for this hit.')
      : null,
    h(
      'table',
      {},
      h(
        'tbody',
        {},
        rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v))),
      ),
    ),
  );
}

/** "Read as: redis, cache · dates “last week” · said by user" — the question as the ranking read it. */
function readingText(r: NonNullable<SearchResult['reading']>): string {
  const parts = [r.terms.join(', ')];
  if (r.date_span) parts.push(`dates “${r.date_span.text}”`);
  if (r.role) parts.push(`said by ${r.role}`);
  if (r.names.length) parts.push(`names ${r.names.join(', ')}`);
  return `Read as: ${parts.filter(Boolean).join(' · ')}.`;
}

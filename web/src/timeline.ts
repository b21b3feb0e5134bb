/**
 * Sessions per day as an SVG bar chart (stacked by agent), and a day's sessions under it. Each
 * bar is a focusable button; the chart is drawn once from the day counts (no per-session nodes),
 * so 10k sessions cost what their few hundred days cost.
 */
import { get, type Thread } from './api.js';
import { AGENTS, agentSelect, basename, field, fmtTime, h, put, s } from './dom.js';
import type { Cleanup } from './main.js';
import { sessionHref } from './search.js';

interface Day {
  date: string;
  sessions: number;
  agents: Record<string, number>;
}
interface Timeline {
  days: Day[];
  sessions: number;
}

const DAY_MS = 86_400_000;
const offset = () => -new Date().getTimezoneOffset();
/** The local day's bounds as UTC instants (the API's since/until). */
function dayBounds(date: string): { since: string; until: string } {
  const start = new Date(`${date}T00:00:00`);
  const end = new Date(start.getTime());
  end.setDate(end.getDate() + 1);
  return { since: start.toISOString(), until: new Date(end.getTime() - 1).toISOString() };
}

export function renderTimeline(main: HTMLElement, _rest: string[], params: URLSearchParams): Cleanup {
  const agent = agentSelect(params.get('agent') ?? '');
  const project = h('input', {
    type: 'text',
    name: 'project',
    value: params.get('project') ?? '',
    placeholder: '/home/me/repo',
  });
  const since = h('input', { type: 'date', name: 'since', value: params.get('since') ?? '' });
  const until = h('input', { type: 'date', name: 'until', value: params.get('until') ?? '' });
  const chart = h('div', { class: 'chart', role: 'group', 'aria-label': 'Sessions per day' });
  const summary = h('p', { class: 'muted', role: 'status' });
  const dayList = h('section', { class: 'day', 'aria-live': 'polite' });
  const filters = () => ({
    agent: agent.value,
    project: project.value.trim(),
    since: since.value,
    until: until.value,
  });
  const go = (day?: string) => {
    const qs = new URLSearchParams(
      Object.entries({ ...filters(), day: day ?? '' }).filter(([, v]) => v) as [string, string][],
    ).toString();
    location.hash = `#/timeline${qs ? `?${qs}` : ''}`;
  };
  for (const el of [agent, since, until]) el.addEventListener('change', () => go());
  project.addEventListener('change', () => go());

  put(
    main,
    h('h1', {}, 'Timeline'),
    h(
      'form',
      {
        class: 'filters',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void go();
        },
      },
      field('Agent', agent),
      field('Project', project),
      field('From', since),
      field('To', until),
    ),
    summary,
    chart,
    h(
      'ul',
      { class: 'legend', 'aria-label': 'Agents' },
      AGENTS.map((a) => h('li', {}, h('span', { class: `swatch agent-${a}` }), a)),
    ),
    dayList,
  );

  const t0 = performance.now();
  const day = params.get('day');
  void get<Timeline>('/v1/timeline', { ...filters(), utc_offset: offset() })
    .then((t) => {
      drawChart(chart, t.days, day, (d) => go(d));
      summary.textContent = `${t.sessions} session${t.sessions === 1 ? '' : 's'} on ${t.days.length} day${t.days.length === 1 ? '' : 's'}.`;
      main.dataset.timelineMs = (performance.now() - t0).toFixed(1);
    })
    .catch((e: Error) => (summary.textContent = `Could not load the timeline: ${e.message}`));
  if (day) void showDay(dayList, day, filters());
  return undefined;
}

const BAR = 8;
const HEIGHT = 120;

function drawChart(
  box: HTMLElement,
  days: Day[],
  selected: string | null,
  pick: (date: string) => void,
): void {
  if (days.length === 0) {
    put(box, h('p', { class: 'muted' }, 'No sessions.'));
    return;
  }
  const first = Date.parse(`${days[0].date}T00:00:00Z`);
  const last = Date.parse(`${days[days.length - 1].date}T00:00:00Z`);
  const span = Math.round((last - first) / DAY_MS) + 1;
  const max = Math.max(...days.map((d) => d.sessions));
  const width = span * BAR;
  const svg = s('svg', {
    width,
    height: HEIGHT + 18,
    viewBox: `0 0 ${width} ${HEIGHT + 18}`,
    role: 'presentation',
  });
  const frag = document.createDocumentFragment();
  for (const d of days) {
    const x = Math.round((Date.parse(`${d.date}T00:00:00Z`) - first) / DAY_MS) * BAR;
    const label = `${d.date}: ${d.sessions} session${d.sessions === 1 ? '' : 's'} (${Object.entries(d.agents)
      .map(([a, n]) => `${a} ${n}`)
      .join(', ')})`;
    const g = s('g', {
      class: `bar${d.date === selected ? ' selected' : ''}`,
      // One tab stop for the whole chart (roving tabindex): ←/→ move between days.
      tabindex: -1,
      role: 'button',
      'aria-label': label,
      'data-date': d.date,
    });
    g.appendChild(s('title', {}, document.createTextNode(label)));
    // A full-height hit area keeps short bars easy to click.
    g.appendChild(s('rect', { class: 'hit-area', x, y: 0, width: BAR, height: HEIGHT }));
    let y = HEIGHT;
    for (const a of AGENTS) {
      const n = d.agents[a] ?? 0;
      if (!n) continue;
      const bh = Math.max(2, (n / max) * (HEIGHT - 4));
      y -= bh;
      g.appendChild(s('rect', { class: `agent-${a}`, x: x + 1, y, width: BAR - 2, height: bh }));
    }
    frag.appendChild(g);
  }
  svg.appendChild(frag);
  // Month ticks along the bottom.
  const d0 = new Date(first);
  for (
    let m = new Date(Date.UTC(d0.getUTCFullYear(), d0.getUTCMonth() + 1, 1));
    m.getTime() <= last;
    m.setUTCMonth(m.getUTCMonth() + 1)
  ) {
    const x = Math.round((m.getTime() - first) / DAY_MS) * BAR;
    svg.appendChild(
      s(
        'text',
        { x: x + 2, y: HEIGHT + 14, class: 'tick' },
        document.createTextNode(m.toISOString().slice(0, 7)),
      ),
    );
  }
  svg.addEventListener('click', (e) => {
    const g = (e.target as Element).closest('g.bar');
    if (g) pick(g.getAttribute('data-date')!);
  });
  svg.addEventListener('keydown', (e) => {
    const g = (e.target as Element).closest('g.bar');
    if (!g) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      pick(g.getAttribute('data-date')!);
    } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      const next = e.key === 'ArrowRight' ? g.nextElementSibling : g.previousElementSibling;
      if (next?.matches('g.bar')) {
        g.setAttribute('tabindex', '-1');
        next.setAttribute('tabindex', '0');
        (next as SVGGElement).focus();
      }
    }
  });
  put(box, svg);
  const sel = selected ? box.querySelector<SVGGElement>(`g[data-date="${selected}"]`) : null;
  const current = sel ?? box.querySelector<SVGGElement>('g.bar:last-of-type');
  current?.setAttribute('tabindex', '0');
  current?.scrollIntoView({ block: 'nearest', inline: 'center' });
}

async function showDay(box: HTMLElement, date: string, f: { agent: string; project: string }): Promise<void> {
  put(box, h('h2', {}, `Sessions on ${date}`), h('p', { class: 'muted' }, 'Loading…'));
  try {
    const { threads } = await get<{ threads: Thread[] }>('/v1/threads', {
      ...dayBounds(date),
      agent: f.agent,
      project: f.project,
      limit: 1000,
    });
    put(
      box,
      h('h2', { tabindex: -1 }, `Sessions on ${date}`),
      threads.length === 0
        ? h('p', { class: 'muted' }, 'No sessions that day.')
        : h(
            'ul',
            { class: 'sessions' },
            threads.map((t) =>
              h(
                'li',
                {},
                h('a', { href: sessionHref(t.id) }, t.title || t.id),
                h(
                  'div',
                  { class: 'meta' },
                  h('span', { class: `badge agent-${t.agent}` }, t.agent),
                  h('span', { title: t.project ?? '' }, basename(t.project)),
                  h('span', {}, `${fmtTime(t.started_at)} – ${fmtTime(t.updated_at)}`),
                  h('span', { class: 'muted' }, `${t.step_count} steps`),
                ),
              ),
            ),
          ),
    );
    box.querySelector<HTMLElement>('h2')?.focus();
  } catch (e) {
    put(box, h('p', {}, `Could not load the day: ${(e as Error).message}`));
  }
}

/**
 * The knowledge base: memories (search, edit, supersede with history, forget/restore, as-of),
 * rules by scope, skills with trust badges and evidence, today's briefing with editable sections,
 * and a preview of the context bundle for a project and budget.
 */
import { get, type Memory, send } from './api.js';
import { agentSelect, debounce, field, fmtTime, h, put, toast } from './dom.js';
import type { Cleanup } from './main.js';
import { sessionHref } from './search.js';

const TABS: [string, string, (box: HTMLElement, p: URLSearchParams) => void][] = [
  ['memories', 'Memories', memories],
  ['rules', 'Rules', rules],
  ['skills', 'Skills', skills],
  ['briefing', 'Briefing', briefing],
  ['context', 'Context bundle', context],
];

export function renderKnowledge(main: HTMLElement, rest: string[], params: URLSearchParams): Cleanup {
  const tab = TABS.find((t) => t[0] === rest[0]) ?? TABS[0];
  const box = h('section', { class: 'tab-panel', 'aria-label': tab[1] });
  put(
    main,
    h('h1', {}, 'Knowledge'),
    h(
      'nav',
      { class: 'tabs', 'aria-label': 'Knowledge' },
      TABS.map(([id, label]) =>
        h('a', { href: `#/knowledge/${id}`, 'aria-current': id === tab[0] ? 'page' : null }, label),
      ),
    ),
    box,
  );
  tab[2](box, params);
  return undefined;
}

/** A `tapedeck://thread/<id>#<step>` link as a link into the session viewer; others as text. */
function uriLink(uri: string): HTMLElement {
  const m = /^tapedeck:\/\/thread\/(.+?)(?:#(\d+))?$/.exec(uri);
  return m ? h('a', { href: sessionHref(m[1], m[2] ? Number(m[2]) : undefined) }, uri) : h('code', {}, uri);
}

const fail = (e: unknown) => toast(`Failed: ${(e as Error).message}`);

// ---------------------------------------------------------------- memories

function memories(box: HTMLElement, params: URLSearchParams): void {
  const q = h('input', { type: 'search', name: 'q', autocomplete: 'off', value: params.get('q') ?? '' });
  const status = h(
    'select',
    { name: 'status' },
    ['active', 'superseded', 'forgotten', 'all'].map((s) => h('option', { value: s }, s)),
  );
  const asOf = h('input', { type: 'date', name: 'as_of' });
  const list = h('ul', { class: 'memories', 'aria-label': 'Memories' });
  const note = h('p', { class: 'muted', role: 'status' });
  let seq = 0;
  async function load(): Promise<void> {
    const mine = ++seq;
    const filters = { as_of: asOf.value || undefined };
    try {
      const ms = q.value.trim()
        ? (await get<{ hits: Memory[] }>('/v1/memories/search', { q: q.value.trim(), ...filters, limit: 50 }))
            .hits
        : (
            await get<{ memories: Memory[] }>('/v1/memories', {
              ...filters,
              status: asOf.value ? undefined : status.value,
              limit: 100,
            })
          ).memories;
      if (mine !== seq) return;
      note.textContent = `${ms.length} memor${ms.length === 1 ? 'y' : 'ies'}${asOf.value ? ` valid on ${asOf.value}` : ''}.`;
      put(
        list,
        ms.map((m) => memoryItem(m, load)),
      );
      const want = params.get('id');
      if (want)
        list
          .querySelector<HTMLElement>(`[data-id="${CSS.escape(want)}"]`)
          ?.scrollIntoView({ block: 'center' });
    } catch (e) {
      note.textContent = `Could not load memories: ${(e as Error).message}`;
    }
  }
  q.addEventListener('input', debounce(load, 150));
  status.addEventListener('change', load);
  asOf.addEventListener('change', load);
  put(
    box,
    h(
      'form',
      {
        class: 'filters',
        role: 'search',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void load();
        },
      },
      field('Search memories', q),
      field('Status', status),
      field('As of', asOf, 'what was valid on that day'),
    ),
    note,
    list,
  );
  void load();
}

function memoryItem(m: Memory, reload: () => Promise<void>): HTMLElement {
  const li = h('li', { class: `memory card status-${m.status}`, 'data-id': m.id });
  const prov = m.provenance;
  const view = () =>
    put(
      li,
      h('h3', {}, m.title),
      h('p', { class: 'content' }, m.content),
      h(
        'div',
        { class: 'meta' },
        h('span', { class: 'badge' }, m.unit_type),
        m.status !== 'active' ? h('span', { class: 'badge warn' }, m.status) : null,
        m.labels.map((l) => h('span', { class: 'label' }, `#${l}`)),
        h('span', { class: 'muted' }, `updated ${fmtTime(m.updated_at)}`),
        prov?.thread
          ? h(
              'a',
              { href: sessionHref(prov.thread, prov.step_from ?? undefined) },
              `from ${prov.link ?? prov.thread}${prov.step_to !== null && prov.step_to !== prov.step_from ? `–${prov.step_to}` : ''}`,
            )
          : null,
        prov?.source ? h('code', {}, prov.source) : null,
      ),
      h(
        'div',
        { class: 'row' },
        m.status === 'active' ? h('button', { type: 'button', onclick: edit }, 'Edit') : null,
        m.status === 'active' ? h('button', { type: 'button', onclick: supersede }, 'Supersede') : null,
        m.status === 'forgotten'
          ? h(
              'button',
              {
                type: 'button',
                onclick: () =>
                  send('POST', `/v1/memories/${encodeURIComponent(m.id)}/restore`).then(reload, fail),
              },
              'Restore',
            )
          : h(
              'button',
              {
                type: 'button',
                onclick: () =>
                  send('POST', `/v1/memories/${encodeURIComponent(m.id)}/forget`).then(reload, fail),
              },
              'Forget',
            ),
        h('button', { type: 'button', onclick: history }, 'History'),
      ),
    );
  function edit(): void {
    const title = h('input', { type: 'text', value: m.title, maxlength: 200, required: true });
    const content = h('textarea', { rows: 4, required: true }, m.content);
    const labels = h('input', { type: 'text', value: m.labels.join(', ') });
    put(
      li,
      h(
        'form',
        {
          class: 'stack',
          'aria-label': 'Edit memory',
          onsubmit: (e: Event) => {
            e.preventDefault();
            send<Memory>('PATCH', `/v1/memories/${encodeURIComponent(m.id)}`, {
              title: title.value,
              content: content.value,
              labels: labels.value
                .split(',')
                .map((l) => l.trim())
                .filter(Boolean),
            }).then(() => {
              toast('Memory saved');
              return reload();
            }, fail);
          },
        },
        field('Title', title),
        field('Content', content),
        field('Labels (comma-separated)', labels),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'submit' }, 'Save'),
          h('button', { type: 'button', onclick: view }, 'Cancel'),
        ),
      ),
    );
    content.focus();
  }
  function supersede(): void {
    const content = h('textarea', { rows: 4, required: true }, m.content);
    put(
      li,
      h(
        'form',
        {
          class: 'stack',
          'aria-label': 'Supersede memory',
          onsubmit: (e: Event) => {
            e.preventDefault();
            send('POST', `/v1/memories/${encodeURIComponent(m.id)}/supersede`, {
              content: content.value,
            }).then(() => {
              toast('Superseded; the old one stays in its history');
              return reload();
            }, fail);
          },
        },
        h(
          'p',
          { class: 'muted' },
          'The new text replaces this memory from now on; the old one stays readable with "as of".',
        ),
        field('New content', content),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'submit' }, 'Supersede'),
          h('button', { type: 'button', onclick: view }, 'Cancel'),
        ),
      ),
    );
    content.focus();
  }
  async function history(): Promise<void> {
    // Walk back through what each version superseded.
    const chain: Memory[] = [];
    let ids = [m.id];
    try {
      while (ids.length && chain.length < 20) {
        const cur = await get<Memory>(`/v1/memories/${encodeURIComponent(ids[0])}`);
        chain.push(cur);
        ids = cur.supersedes ?? [];
      }
    } catch (e) {
      return fail(e);
    }
    li.append(
      h(
        'ol',
        { class: 'history', 'aria-label': 'History' },
        chain.map((c) =>
          h(
            'li',
            {},
            h('strong', {}, c.status),
            ` ${fmtTime(c.valid_from)}${c.valid_to ? ` – ${fmtTime(c.valid_to)}` : ''}: `,
            c.content,
          ),
        ),
      ),
    );
  }
  view();
  return li;
}

// ---------------------------------------------------------------- rules

interface Rule {
  id: string;
  title: string;
  body: string;
  scope: string;
  enabled: boolean;
  priority: number;
}
function rules(box: HTMLElement): void {
  get<{ rules: Rule[] }>('/v1/rules', { all_spaces: true })
    .then(({ rules }) => {
      const byScope = new Map<string, Rule[]>();
      for (const r of rules) byScope.set(r.scope, [...(byScope.get(r.scope) ?? []), r]);
      put(
        box,
        rules.length === 0 ? h('p', { class: 'muted' }, 'No rules yet (tapedeck rules add).') : null,
        [...byScope].map(([scope, rs]) =>
          h(
            'section',
            {},
            h('h2', {}, scope),
            h(
              'ul',
              { class: 'rules' },
              rs.map((r) =>
                h(
                  'li',
                  { class: `card${r.enabled ? '' : ' disabled'}` },
                  h('h3', {}, r.title, r.enabled ? null : h('span', { class: 'badge warn' }, 'disabled')),
                  h('p', {}, r.body),
                  h('div', { class: 'meta muted' }, `priority ${r.priority}`),
                ),
              ),
            ),
          ),
        ),
      );
    })
    .catch((e: Error) => put(box, h('p', {}, `Could not load rules: ${e.message}`)));
}

// ---------------------------------------------------------------- skills

interface Skill {
  name: string;
  description: string;
  stage: string;
  version: number;
  badge: string;
  body?: string;
  evidence?: ({ uri?: string; link?: string; note?: string | null } | string)[];
  trust?: Record<string, unknown>;
}
function skills(box: HTMLElement): void {
  get<{ skills: Skill[] }>('/v1/skills', { include_archived: true })
    .then(({ skills }) =>
      put(
        box,
        skills.length === 0 ? h('p', { class: 'muted' }, 'No skills yet.') : null,
        h(
          'ul',
          { class: 'skills' },
          skills.map((sk) => {
            const more = h('div', {});
            return h(
              'li',
              { class: 'card' },
              h(
                'h3',
                {},
                sk.name,
                ' ',
                h(
                  'span',
                  {
                    class: `badge trust-${sk.badge.toLowerCase()}`,
                    title: 'Trust: Draft → Checked → Proven',
                  },
                  sk.badge,
                ),
                ' ',
                h('span', { class: 'badge' }, `${sk.stage} · v${sk.version}`),
              ),
              h('p', {}, sk.description),
              h(
                'details',
                {
                  ontoggle: (e: Event) =>
                    (e.target as HTMLDetailsElement).open &&
                    !more.childNodes.length &&
                    void showSkill(sk.name, more),
                },
                h('summary', {}, 'Body and evidence'),
                more,
              ),
            );
          }),
        ),
      ),
    )
    .catch((e: Error) => put(box, h('p', {}, `Could not load skills: ${e.message}`)));
}
async function showSkill(name: string, box: HTMLElement): Promise<void> {
  try {
    const sk = await get<Skill>(`/v1/skills/${encodeURIComponent(name)}`);
    const ev = sk.evidence ?? [];
    put(
      box,
      h('pre', { class: 'text' }, sk.body ?? ''),
      h('h4', {}, `Evidence (${ev.length})`),
      ev.length === 0
        ? h('p', { class: 'muted' }, 'No evidence attached.')
        : h(
            'ul',
            {},
            ev.map((e) =>
              h(
                'li',
                {},
                uriLink(typeof e === 'string' ? e : (e.uri ?? e.link ?? JSON.stringify(e))),
                typeof e === 'object' && e.note ? ` — ${e.note}` : null,
              ),
            ),
          ),
      sk.trust
        ? h(
            'p',
            { class: 'muted' },
            Object.entries(sk.trust)
              .filter(([, v]) => typeof v === 'number')
              .map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`)
              .join(' · '),
          )
        : null,
    );
  } catch (e) {
    put(box, h('p', {}, (e as Error).message));
  }
}

// ---------------------------------------------------------------- briefing

interface Section {
  name: string;
  heading: string;
  markdown: string;
  edited: boolean;
  generated_at: string;
}
function briefing(box: HTMLElement): void {
  const load = () =>
    get<{ date: string; space: string; sections: Section[] }>('/v1/working-memory')
      .then((wm) =>
        put(
          box,
          h(
            'p',
            { class: 'muted' },
            `Working memory for ${wm.date} (space ${wm.space}).`,
            ' ',
            h(
              'button',
              {
                type: 'button',
                onclick: () => send('POST', '/v1/working-memory/refresh', {}).then(load, fail),
              },
              'Regenerate',
            ),
          ),
          wm.sections.map((sec) => sectionCard(sec, load)),
        ),
      )
      .catch((e: Error) => put(box, h('p', {}, `Could not load the briefing: ${e.message}`)));
  void load();
}
function sectionCard(sec: Section, reload: () => Promise<void>): HTMLElement {
  const card = h('section', { class: 'card' });
  const view = () =>
    put(
      card,
      h('h2', {}, sec.heading, sec.edited ? h('span', { class: 'badge' }, 'edited') : null),
      h('pre', { class: 'text' }, sec.markdown),
      h('button', { type: 'button', onclick: edit }, `Edit ${sec.heading}`),
    );
  function edit(): void {
    const text = h('textarea', { rows: 6 }, sec.markdown);
    put(
      card,
      h(
        'form',
        {
          class: 'stack',
          onsubmit: (e: Event) => {
            e.preventDefault();
            send('PUT', '/v1/working-memory', { section: sec.name, text: text.value }).then(() => {
              toast('Section saved');
              return reload();
            }, fail);
          },
        },
        field(sec.heading, text),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'submit' }, 'Save'),
          h('button', { type: 'button', onclick: view }, 'Cancel'),
        ),
      ),
    );
    text.focus();
  }
  view();
  return card;
}

// ---------------------------------------------------------------- context bundle

function context(box: HTMLElement): void {
  const project = h('input', { type: 'text', name: 'project', placeholder: '/home/me/repo' });
  const agent = agentSelect();
  const budget = h('input', {
    type: 'number',
    name: 'budget',
    min: 100,
    max: 100000,
    step: 100,
    value: 2000,
  });
  const out = h('div', { 'aria-live': 'polite' });
  const load = () =>
    get<{
      markdown: string;
      tokens: number;
      budget: number;
      items: { kind: string; title: string; reason: string; tokens: number; link?: string }[];
      omitted: unknown[];
    }>('/v1/context', {
      project: project.value.trim(),
      agent: agent.value,
      budget: budget.value,
    })
      .then((c) =>
        put(
          out,
          h(
            'p',
            {},
            `${c.tokens} of ${c.budget} tokens; ${c.items.length} item${c.items.length === 1 ? '' : 's'}, ${c.omitted.length} left out.`,
          ),
          h(
            'table',
            {},
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'col' }, 'kind'),
                h('th', { scope: 'col' }, 'item'),
                h('th', { scope: 'col' }, 'why'),
                h('th', { scope: 'col' }, 'tokens'),
              ),
            ),
            h(
              'tbody',
              {},
              c.items.map((i) =>
                h(
                  'tr',
                  {},
                  h('td', {}, i.kind),
                  h('td', {}, i.title),
                  h('td', {}, i.reason),
                  h('td', {}, String(i.tokens)),
                ),
              ),
            ),
          ),
          h('h2', {}, 'What the agent will read'),
          h('pre', { class: 'text' }, c.markdown),
        ),
      )
      .catch((e: Error) => put(out, h('p', {}, `Could not build the bundle: ${e.message}`)));
  put(
    box,
    h(
      'form',
      {
        class: 'filters',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void load();
        },
      },
      field('Project', project),
      field('Agent', agent),
      field('Token budget', budget),
      h('button', { type: 'submit' }, 'Preview'),
    ),
    out,
  );
  void load();
}

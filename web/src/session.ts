/**
 * One session: its steps with roles, tool calls and outputs folded, provenance (file:line),
 * copyable tapedeck:// links, keyboard navigation (j/k move, Enter folds/unfolds, Shift+j/k or
 * Shift+click extend a range, s saves the range), and "save as memory" with provenance filled in.
 */
import { get, type Memory, type Step, send, type Thread } from './api.js';
import { basename, field, fmtTime, h, put, toast } from './dom.js';
import type { Cleanup } from './main.js';

const FOLDED = new Set(['tool_call', 'tool_result']);
const PAGE = 500;

export const threadLink = (thread: string, step: number) => `tapedeck://thread/${thread}#${step}`;

export function renderSession(main: HTMLElement, rest: string[], params: URLSearchParams): Cleanup {
  const id = rest.join('/');
  const target = params.has('step') ? Number(params.get('step')) : undefined;
  const list = h('ol', { class: 'steps', 'aria-label': 'Steps' });
  const header = h('header', { class: 'session-head' }, h('h1', {}, 'Session'));
  const more = h('button', { type: 'button', hidden: true }, 'Load more steps');
  const bar = h('div', { class: 'selection-bar', role: 'region', 'aria-label': 'Selection' });
  const form = h('div', { class: 'save-form' });
  put(main, header, bar, form, list, more);

  const steps: Step[] = [];
  let next: number | null = 0;
  let cursor = -1; // index into steps of the focused step
  let anchor = -1; // where a Shift range starts

  const items = () => list.querySelectorAll<HTMLLIElement>('li.step');
  function range(): [number, number] | null {
    if (cursor < 0) return null;
    const a = anchor < 0 ? cursor : anchor;
    return [Math.min(a, cursor), Math.max(a, cursor)];
  }
  function paint(): void {
    const r = range();
    items().forEach((li, i) => {
      const on = !!r && i >= r[0] && i <= r[1];
      li.classList.toggle('selected', on);
      if (on) li.setAttribute('aria-current', 'true');
      else li.removeAttribute('aria-current');
    });
    if (!r) {
      put(bar, h('span', { class: 'muted' }, 'Select a step (click, or j/k); Shift extends the range.'));
      return;
    }
    const [a, b] = [steps[r[0]].step, steps[r[1]].step];
    put(
      bar,
      h('span', {}, a === b ? `Step ${a} selected` : `Steps ${a}–${b} selected`),
      h('button', { type: 'button', onclick: () => openSave() }, 'Save as memory…'),
      h('button', { type: 'button', onclick: () => copy(threadLink(id, a)) }, 'Copy link'),
    );
  }
  function select(i: number, extend: boolean, focus = true): void {
    if (i < 0 || i >= steps.length) return;
    if (extend) anchor = anchor < 0 ? cursor : anchor;
    else anchor = -1;
    cursor = i;
    paint();
    const li = items()[i];
    if (focus) li?.focus();
  }

  function openSave(): void {
    const r = range();
    if (!r) return;
    const chosen = steps.slice(r[0], r[1] + 1);
    const a = chosen[0].step;
    const b = chosen[chosen.length - 1].step;
    const content = h(
      'textarea',
      { rows: 6, required: true },
      chosen
        .map((s) => s.text)
        .join('\n\n')
        .slice(0, 20_000),
    );
    const title = h('input', { type: 'text', maxlength: 200 });
    const labels = h('input', { type: 'text', placeholder: 'deploy, decision' });
    put(
      form,
      h(
        'form',
        {
          class: 'stack card',
          'aria-label': 'Save as memory',
          onsubmit: async (e: Event) => {
            e.preventDefault();
            try {
              const m = await send<Memory>('POST', '/v1/memories', {
                content: content.value,
                title: title.value.trim() || undefined,
                labels: labels.value
                  .split(',')
                  .map((l) => l.trim())
                  .filter(Boolean),
                thread: id,
                steps: `${a}-${b}`,
              });
              put(
                form,
                h(
                  'p',
                  { class: 'ok', role: 'status' },
                  'Saved as ',
                  h('a', { href: `#/knowledge/memories?id=${encodeURIComponent(m.id)}` }, m.title),
                  ` (${m.link}, from steps ${a}–${b}).`,
                ),
              );
            } catch (err) {
              toast(`Not saved: ${(err as Error).message}`);
            }
          },
        },
        h('h2', {}, `Save steps ${a}–${b} as a memory`),
        h('p', { class: 'muted' }, `Provenance: ${threadLink(id, a)} (steps ${a}–${b})`),
        field('Title (optional)', title),
        field('Content', content),
        field('Labels (comma-separated)', labels),
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'submit' }, 'Save memory'),
          h('button', { type: 'button', onclick: () => put(form) }, 'Cancel'),
        ),
      ),
    );
    content.focus();
  }

  function stepItem(st: Step, i: number): HTMLLIElement {
    const folded = FOLDED.has(st.kind);
    const label = `${st.role} ${st.kind}${st.tool ? ` ${st.tool}` : ''}`;
    const body = h('pre', { class: 'text' }, st.text);
    const li = h(
      'li',
      {
        class: `step role-${st.role}`,
        tabindex: -1,
        id: `step-${st.step}`,
        'data-step': st.step,
        'aria-label': `Step ${st.step}, ${label}`,
      },
      h(
        'div',
        { class: 'meta' },
        h('span', { class: `role role-${st.role}` }, st.role),
        h('span', {}, st.kind),
        st.tool ? h('code', {}, st.tool) : null,
        h('span', { class: 'muted' }, `#${st.step}`),
        h('span', {}, fmtTime(st.timestamp)),
        h(
          'code',
          { class: 'prov', title: 'Where this step is in the transcript' },
          `${basename(st.source.path)}:${st.source.line}`,
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            'aria-label': `Copy link to step ${st.step}`,
            onclick: (e: Event) => {
              e.stopPropagation();
              void copy(threadLink(id, st.step));
            },
          },
          'copy link',
        ),
      ),
      folded
        ? h(
            'details',
            {},
            h(
              'summary',
              {},
              `${st.kind === 'tool_call' ? 'Tool call' : 'Tool output'}${st.target ? `: ${st.target}` : ''} (${st.text.length} chars)`,
            ),
            body,
          )
        : body,
    );
    li.addEventListener('click', (e) => {
      if ((e.target as Element).closest('summary, button, a')) return;
      select(i, (e as MouseEvent).shiftKey);
    });
    return li;
  }

  async function load(): Promise<void> {
    if (next === null) return;
    const r = await get<{ thread: Thread; steps: Step[]; next: number | null }>(
      `/v1/threads/${encodeURIComponent(id)}`,
      { from: next, limit: PAGE, max_chars: 50_000 },
    );
    if (steps.length === 0) drawHeader(r.thread);
    const start = steps.length;
    steps.push(...r.steps);
    list.append(...r.steps.map((st, k) => stepItem(st, start + k)));
    next = r.next;
    more.hidden = next === null;
  }
  function drawHeader(t: Thread): void {
    put(
      header,
      h('h1', {}, t.title || t.id),
      h(
        'div',
        { class: 'meta' },
        h('span', { class: `badge agent-${t.agent}` }, t.agent),
        h('span', { title: t.project ?? '' }, t.project ?? 'no project'),
        h('span', {}, `${fmtTime(t.started_at)} – ${fmtTime(t.updated_at)}`),
        h('span', {}, `${t.step_count} steps`),
      ),
      h(
        'p',
        { class: 'muted' },
        h('code', { class: 'prov' }, t.source),
        t.source_gone
          ? h(
              'span',
              { class: 'badge warn' },
              ` file ${t.source_gone.reason} ${fmtTime(t.source_gone.at)} (kept here; tapedeck restore brings it back) `,
            )
          : null,
        ' · ',
        h('kbd', {}, 'j'),
        '/',
        h('kbd', {}, 'k'),
        ' move, ',
        h('kbd', {}, 'Enter'),
        ' unfold, ',
        h('kbd', {}, 'Shift'),
        ' extends, ',
        h('kbd', {}, 's'),
        ' saves as memory',
      ),
    );
  }
  more.addEventListener('click', () => void load().catch((e: Error) => toast(e.message)));

  const onKey = (e: KeyboardEvent) => {
    if ((e.target as Element).closest('input, textarea, select') || e.ctrlKey || e.metaKey || e.altKey)
      return;
    const k = e.key.toLowerCase();
    if (k === 'j' || k === 'k') {
      e.preventDefault();
      select(cursor < 0 ? 0 : cursor + (k === 'j' ? 1 : -1), e.shiftKey);
    } else if (e.key === 'Enter' && cursor >= 0 && (e.target as Element).matches('li.step, body, main')) {
      const d = items()[cursor]?.querySelector('details');
      if (d) {
        e.preventDefault();
        d.open = !d.open;
      }
    } else if (k === 's' && cursor >= 0) {
      e.preventDefault();
      openSave();
    }
  };
  document.addEventListener('keydown', onKey);

  (async () => {
    await load();
    while (target !== undefined && next !== null && !steps.some((st) => st.step >= target)) await load();
    paint();
    if (target !== undefined) {
      const i = steps.findIndex((st) => st.step >= target);
      if (i >= 0) {
        select(i, false);
        items()[i].querySelector('details')?.setAttribute('open', '');
        items()[i].scrollIntoView({ block: 'center' });
      }
    }
  })().catch((e: Error) =>
    put(header, h('h1', {}, 'Session'), h('p', {}, `Could not load ${id}: ${e.message}`)),
  );
  return () => document.removeEventListener('keydown', onKey);
}

async function copy(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast(`Copied ${text}`);
  } catch {
    // No clipboard permission (e.g. a plain-http remote server): show it to copy by hand.
    window.prompt('Copy this link', text);
  }
}

/** A tiny element builder: `h('a', {href: '#/x'}, 'text', child)`. Text is always set as text, never HTML. */
export type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') el.className = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

const SVG = 'http://www.w3.org/2000/svg';
/** An SVG element with attributes. */
export function s(tag: string, attrs: Record<string, string | number> = {}, ...children: Node[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.appendChild(c);
  return el;
}

/** Replace an element's children. */
export function put(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A labelled form control: the label is tied to the control by id (screen readers announce it). */
let ids = 0;
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  control.id ||= `f${++ids}`;
  return h(
    'label',
    { class: 'field', for: control.id },
    h('span', {}, label),
    control,
    hint ? h('small', {}, hint) : null,
  );
}

/** Snippets mark matches with «…»; show them as <mark>, everything else as text. */
export function marked(text: string): Child[] {
  return text
    .split(/(«[^»]*»)/)
    .map((part) => (part.startsWith('«') && part.endsWith('»') ? h('mark', {}, part.slice(1, -1)) : part));
}

export const fmtTime = (iso: string | null | undefined): string => {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

export const basename = (p: string | null | undefined) =>
  p ? p.replace(/\/+$/, '').split('/').pop() || p : '—';

/** Brief message in the live region (announced to screen readers). */
export function toast(message: string): void {
  const t = document.getElementById('toast');
  if (!t) return;
  t.textContent = message;
  t.classList.add('show');
  setTimeout(() => t.classList.remove('show'), 2500);
}

/** `fn` once input has paused for `ms`. */
export function debounce<A extends unknown[]>(fn: (...a: A) => void, ms: number): (...a: A) => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return (...a) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...a), ms);
  };
}

export const AGENTS = ['antigravity', 'claude-code', 'codex', 'gemini-cli'] as const;

/** A <select> of agents with "any agent" first. */
export function agentSelect(value = ''): HTMLSelectElement {
  return h(
    'select',
    { name: 'agent' },
    h('option', { value: '' }, 'any agent'),
    AGENTS.map((a) => h('option', { value: a, selected: a === value }, a)),
  );
}

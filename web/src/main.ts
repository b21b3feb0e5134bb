/**
 * The page: a hash router over five views (search, timeline, session, knowledge, status). Views
 * render into <main>; each returns an optional cleanup (key handlers, timers) run on leaving.
 */
import { setToken, takeTokenFromUrl, token } from './api.js';
import { field, h, put } from './dom.js';
import { renderKnowledge } from './knowledge.js';
import { renderSearch } from './search.js';
import { renderSession } from './session.js';
import { renderStatus } from './status.js';
import { renderTimeline } from './timeline.js';

export type Cleanup = (() => void) | undefined;
export type View = (main: HTMLElement, rest: string[], params: URLSearchParams) => Cleanup;

const VIEWS: Record<string, View> = {
  search: renderSearch,
  timeline: renderTimeline,
  session: renderSession,
  knowledge: renderKnowledge,
  status: renderStatus,
};

let cleanup: Cleanup;

function route(): void {
  // A link from `tapedeck ui` pasted into an open tab arrives as a hash change.
  takeTokenFromUrl();
  const main = document.getElementById('main')!;
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, qs = ''] = hash.split('?');
  const [name, ...rest] = path.split('/');
  const view = VIEWS[name] ?? renderSearch;
  const page = VIEWS[name] ? name : 'search';
  for (const a of document.querySelectorAll<HTMLAnchorElement>('nav a')) {
    if (a.dataset.page === (page === 'session' ? 'timeline' : page)) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  cleanup?.();
  cleanup = undefined;
  if (!token()) {
    askForToken(main);
    return;
  }
  put(main);
  cleanup = view(main, rest.map(decodeURIComponent), new URLSearchParams(qs));
}

/** Without a token the API answers 401: say where the link comes from, or take a key. */
function askForToken(main: HTMLElement, why?: string): void {
  const input = h('input', { type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' });
  put(
    main,
    h('h1', {}, 'Sign in'),
    h(
      'p',
      {},
      why ??
        'This page needs the link that `tapedeck ui` prints (it carries your local token), or an API key for a remote server.',
    ),
    h(
      'form',
      {
        class: 'stack narrow',
        onsubmit: (e: Event) => {
          e.preventDefault();
          setToken(input.value);
          route();
        },
      },
      field('Token or API key', input),
      h('button', { type: 'submit' }, 'Continue'),
    ),
  );
}

window.addEventListener('tapedeck:unauthorized', () => {
  sessionStorage.clear();
  askForToken(
    document.getElementById('main')!,
    'The server refused the token (401). Open the link `tapedeck ui` prints again, or enter an API key.',
  );
});
window.addEventListener('hashchange', route);
route();

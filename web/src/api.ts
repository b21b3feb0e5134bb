/**
 * Calls to the server the page came from. The owner's token (or an API key) arrives once in the
 * URL fragment (`#token=…`, never sent to any server), is kept in sessionStorage for this tab and
 * sent as `Authorization: Bearer` on every call.
 */
const KEY = 'tapedeck.token';

/** Take `#token=…` from the address (then drop it from the address bar and history). */
export function takeTokenFromUrl(): void {
  const m = /^#token=([^&]+)/.exec(location.hash);
  if (!m) return;
  sessionStorage.setItem(KEY, decodeURIComponent(m[1]));
  history.replaceState(null, '', `${location.pathname}${location.search}#/search`);
}

export const token = () => sessionStorage.getItem(KEY);
export const setToken = (t: string) => sessionStorage.setItem(KEY, t.trim());

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

/** `/v1/x` + the query's non-empty values. */
export function url(path: string, query: Query = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

/** JSON from the API; an error body becomes an ApiError with the server's message. */
export async function api<T>(
  method: string,
  path: string,
  { query, body, signal }: { query?: Query; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  const t = token();
  if (t) headers.authorization = `Bearer ${t}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url(path, query), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    credentials: 'omit',
    cache: 'no-store',
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(
      res.status,
      'BAD_RESPONSE',
      `The server answered ${res.status} with something that is not JSON`,
    );
  }
  if (!res.ok) {
    const e = (data as { error?: { code?: string; message?: string } } | null)?.error;
    if (res.status === 401) window.dispatchEvent(new CustomEvent('tapedeck:unauthorized'));
    throw new ApiError(res.status, e?.code ?? 'HTTP', e?.message ?? `HTTP ${res.status}`);
  }
  return data as T;
}

export const get = <T>(path: string, query?: Query, signal?: AbortSignal) =>
  api<T>('GET', path, { query, signal });
export const send = <T>(method: string, path: string, body?: unknown) =>
  api<T>(method, path, { body: body ?? {} });

// The shapes the page reads (a subset of what the API returns; see /openapi.json).
export interface Source {
  path: string;
  line: number;
}
export interface Hit {
  thread: string;
  agent: string;
  project: string | null;
  title: string | null;
  step: number;
  role: string;
  kind: string;
  timestamp: string | null;
  snippet: string;
  score: number;
  source: Source;
  explain?: unknown;
  /** The transcript file was deleted or truncated after indexing (the steps stay). */
  source_gone?: { at: string; reason: string };
}
export interface SearchResult {
  query: string;
  took_ms: number;
  hits: Hit[];
  /** How the server read the question (with explain, when the ranking reports it). */
  reading?: { terms: string[]; date_span: { text: string } | null; role: string | null; names: string[] };
}
export interface Thread {
  id: string;
  agent: string;
  project: string | null;
  title: string | null;
  session_id: string;
  started_at: string | null;
  updated_at: string | null;
  source: string;
  step_count: number;
  parent_id: string | null;
  source_gone: { at: string; reason: string } | null;
}
/** A step as the API sends it (the CLI's `show --json` naming). */
export interface Step {
  thread: string;
  step: number;
  role: string;
  kind: string;
  text: string;
  tool: string | null;
  target: string | null;
  timestamp: string | null;
  source: Source;
}
export interface Memory {
  id: string;
  link: string;
  title: string;
  content: string;
  unit_type: string;
  labels: string[];
  importance: number;
  project: string | null;
  provenance: {
    thread: string | null;
    step_from: number | null;
    step_to: number | null;
    link: string | null;
    source: string | null;
  } | null;
  created_at: string;
  updated_at: string;
  valid_from: string;
  valid_to: string | null;
  superseded_by: string | null;
  forgotten_at: string | null;
  status: string;
  supersedes?: string[];
}

/** The actions of `tapedeck wiki …` (loaded only when one runs). */
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import type { WikiHit, WikiPage, WikiPageSummary, WikiWriteResult } from '../../../services/wiki.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { print, printJson } from '../output.js';
import { readText } from './read-text.js';

interface WikiFlags extends GlobalFlags {
  space?: string;
  content?: string;
  file?: string;
  ifVersion?: string;
  version?: string;
  history?: boolean;
  folder?: string;
  limit?: string;
}

const scope = (f: WikiFlags) => ({ space: f.space, cwd: process.cwd() });

async function withEngine<R>(
  flags: WikiFlags,
  fn: (e: Engine) => Promise<R>,
  human: (r: R) => string,
): Promise<void> {
  const engine = openEngine(flags);
  try {
    const r = await fn(engine);
    if (flags.json) printJson(r);
    else print(human(r));
  } finally {
    engine.close();
  }
}

export async function runWrite(path: string, f: WikiFlags): Promise<void> {
  if (f.content !== undefined && f.file !== undefined)
    throw invalidInput('Give --content or --file, not both');
  let content = f.content;
  if (content === undefined) {
    if (f.file === undefined && process.stdin.isTTY)
      throw invalidInput('Give the page text with --content, --file, or on standard input');
    content = readText(f.file ?? '-');
  }
  const expectedVersion = intOption('if-version', f.ifVersion, 0);
  await withEngine(
    f,
    (e) => e.wiki.write(path, content, { ...scope(f), expectedVersion }),
    (r: WikiWriteResult) =>
      r.status === 'unchanged'
        ? `Unchanged: ${r.path} (v${r.version})`
        : `${r.status[0].toUpperCase()}${r.status.slice(1)} ${r.path} v${r.version} — ${r.title}`,
  );
}

export async function runShow(path: string, f: WikiFlags): Promise<void> {
  if (f.history)
    return withEngine(
      f,
      (e) => e.wiki.history(path, scope(f)),
      (r) =>
        [
          `${r.path}${r.removed_at ? ` (removed ${r.removed_at})` : ''}`,
          ...r.versions.map((v) => `v${v.version}  ${v.created_at}  ${v.chars} chars  ${v.title}`),
        ].join('\n'),
    );
  const version = intOption('version', f.version, 1);
  await withEngine(
    f,
    (e) => e.wiki.read(path, { ...scope(f), version }),
    (r: WikiPage) => r.content.trimEnd(),
  );
}

export const runList = (folder: string | undefined, f: WikiFlags) =>
  withEngine(
    f,
    async (e) => ({ pages: await e.wiki.list(folder, scope(f)) }),
    (r: { pages: WikiPageSummary[] }) =>
      r.pages.length
        ? r.pages.map((p) => `${p.path}  v${p.version}  ${p.updated_at.slice(0, 10)}  ${p.title}`).join('\n')
        : 'No wiki pages.',
  );

export const runSearch = (query: string, f: WikiFlags) =>
  withEngine(
    f,
    (e) => e.wiki.search(query, { ...scope(f), prefix: f.folder, limit: intOption('limit', f.limit, 1) }),
    (r: { hits: WikiHit[] }) =>
      r.hits.length
        ? r.hits.map((h) => `${h.path} — ${h.title}\n  ${h.snippet.replace(/\s+/g, ' ')}`).join('\n')
        : 'No pages match.',
  );

export const runRemove = (path: string, f: WikiFlags) =>
  withEngine(
    f,
    (e) => e.wiki.remove(path, scope(f)),
    (r) =>
      `Removed ${r.path} (v${r.version} stays readable: tapedeck wiki show ${r.path} --version=${r.version})`,
  );

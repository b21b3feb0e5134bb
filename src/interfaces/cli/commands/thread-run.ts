/** The actions of `tapedeck thread …` (loaded only when one runs). */
import { readFileSync } from 'node:fs';
import { invalidInput } from '../../../core/errors.js';
import {
  appendInputFrom,
  importInputFrom,
  type ReconcileResult,
  reconcileInputFrom,
  type SaveResult,
} from '../../../services/saved-threads/index.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { print, printJson, warn } from '../output.js';

interface FileFlags extends GlobalFlags {
  file?: string;
}

/** The JSON document in `--file` (a path, or `-` for standard input). */
function readBody(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw invalidInput(`Cannot read ${file === '-' ? 'standard input' : file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw invalidInput(
      `${file === '-' ? 'Standard input' : file} is not valid JSON: ${(e as Error).message}`,
    );
  }
}

function saved(r: SaveResult, verb: string): string {
  if (r.replayed)
    return `Already done (same idempotency key): ${r.thread_id} has ${r.total_messages} messages; nothing written.`;
  const skipped = r.messages_skipped ? ` (${r.messages_skipped} already there, skipped)` : '';
  return `${verb} ${r.messages_added} message${r.messages_added === 1 ? '' : 's'}${skipped}: ${r.thread_id} has ${r.total_messages} in total.`;
}

export async function runImport(flags: FileFlags & { merge?: boolean }): Promise<void> {
  const input = { ...importInputFrom(readBody(flags.file!)), merge: !!flags.merge };
  const engine = openEngine(flags);
  try {
    const r = engine.savedThreads.import(input);
    if (flags.json) printJson(r);
    else print(saved(r, r.created ? 'Saved a new thread with' : 'Merged'));
  } finally {
    engine.close();
  }
}

export async function runAppend(
  id: string,
  flags: FileFlags & { expectedCount?: string; idempotencyKey?: string; dedupe?: boolean },
): Promise<void> {
  const body = appendInputFrom(id, readBody(flags.file!));
  const input = {
    ...body,
    expectedMessageCount: intOption('expected-count', flags.expectedCount) ?? body.expectedMessageCount,
    idempotencyKey: flags.idempotencyKey ?? body.idempotencyKey,
    deduplicate: flags.dedupe === false ? false : body.deduplicate,
  };
  const engine = openEngine(flags);
  try {
    const r = engine.savedThreads.append(input);
    if (flags.json) printJson(r);
    else print(saved(r, 'Appended'));
  } finally {
    engine.close();
  }
}

export async function runReconcile(id: string, flags: FileFlags & { matched?: string }): Promise<void> {
  const matched = intOption('matched', flags.matched);
  const input = reconcileInputFrom(id, flags.file ? readBody(flags.file) : [], matched);
  const engine = openEngine(flags);
  try {
    const r: ReconcileResult = engine.savedThreads.reconcile(input);
    if (flags.json) printJson(r);
    else
      print(
        `Reconciled ${r.thread_id}: kept ${r.messages_kept}, replaced ${r.messages_removed} with ${r.messages_added}; ${r.total_messages} in total.`,
      );
  } finally {
    engine.close();
  }
}

export async function runHandoff(id: string, flags: GlobalFlags & { title?: string }): Promise<void> {
  const engine = openEngine(flags);
  try {
    const r = engine.savedThreads.handoff({ thread: id, title: flags.title });
    if (flags.json) printJson(r);
    else {
      print(r.markdown);
      warn(`\nSaved as ${r.id} (tapedeck show ${r.id})`);
    }
  } finally {
    engine.close();
  }
}

export async function runShowSaved(
  id: string,
  flags: GlobalFlags & { from?: string; limit?: string },
): Promise<void> {
  const engine = openEngine(flags);
  try {
    const r = engine.savedThreads.get(id, {
      from: intOption('from', flags.from) ?? 0,
      limit: intOption('limit', flags.limit, 1) ?? 1000,
    });
    if (flags.json) {
      printJson(r);
      return;
    }
    const t = r.thread;
    print(
      `${t.title ?? '(untitled)'}\n${t.id} · ${t.agent}${r.source_app ? ` (${r.source_app})` : ''} · space ${t.space} · ${t.stepCount} messages`,
    );
    if (t.parentId) print(`from ${t.parentId}`);
    for (const m of r.messages) {
      print(`\n#${m.index} ${m.role}${m.external_id ? ` [${m.external_id}]` : ''} · ${m.timestamp ?? ''}`);
      print(m.content.replace(/^/gm, '    '));
    }
    if (r.next !== null) print(`\n… more: tapedeck thread show ${t.id} --from ${r.next}`);
  } finally {
    engine.close();
  }
}

export async function runListSaved(flags: GlobalFlags & { limit?: string; offset?: string }): Promise<void> {
  const engine = openEngine(flags);
  try {
    const list = engine.savedThreads.list({
      limit: intOption('limit', flags.limit, 1) ?? 50,
      offset: intOption('offset', flags.offset) ?? 0,
    });
    if (flags.json) printJson({ threads: list });
    else if (list.length === 0)
      print('No saved threads yet. Save one with `tapedeck thread import --file F.json`.');
    else
      for (const t of list)
        print(
          `${t.updated_at.slice(0, 16).replace('T', ' ')}  ${String(t.total_messages).padStart(5)} msgs  ${t.title ?? '(untitled)'}\n${' '.repeat(18)}${t.id}  ${t.source_app ?? t.agent}`,
        );
  } finally {
    engine.close();
  }
}

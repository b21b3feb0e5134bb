/**
 * `tapedeck forget THREAD` and `tapedeck restore THREAD`: the two explicit acts on a thread's
 * history. Forgetting deletes (with confirmation: --yes, or a prompt on a terminal; --json needs
 * --yes); restoring writes the archived transcript back byte-identical.
 */
import { createInterface } from 'node:readline/promises';
import { restoreThread } from '../../../app/restore.js';
import { invalidInput } from '../../../core/errors.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { print, printJson, tildify } from '../output.js';

async function confirmed(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

export async function runForget(thread: string, flags: GlobalFlags & { yes?: boolean }): Promise<void> {
  if (!flags.yes && (flags.json || !process.stdin.isTTY))
    throw invalidInput(
      `forget deletes ${thread}'s indexed steps and its archived transcript for good; confirm with --yes`,
    );
  const engine = openEngine(flags);
  try {
    const id = engine.transcripts.resolveThreadId(thread);
    if (!flags.yes) {
      const t = engine.store.getThread(id)!;
      const ok = await confirmed(
        `Forget ${id} (${t.stepCount} steps, "${t.title ?? 'untitled'}")? Its indexed steps and archived copy are deleted for good.`,
      );
      if (!ok) {
        print('Nothing forgotten.');
        return;
      }
    }
    const t = engine.transcripts.forget(id);
    if (flags.json) return printJson({ forgotten: { id: t.id, stepCount: t.stepCount, source: t.source } });
    print(`Forgot ${t.id} (${t.stepCount} steps) and its archived copy.`);
    if (!t.sourceGone)
      print(`  ${tildify(t.source)} is still there: if it grows, its new steps are indexed again.`);
  } finally {
    engine.close();
  }
}

export async function runRestore(
  thread: string,
  flags: GlobalFlags & { to?: string; force?: boolean; generation?: string },
): Promise<void> {
  // The archive is this machine's: a configured server does not hold it.
  const engine = openEngine(flags, { local: true });
  try {
    const r = restoreThread(engine, {
      thread,
      to: flags.to,
      force: flags.force,
      generation: intOption('generation', flags.generation),
    });
    if (flags.json) return printJson(r);
    print(
      r.written
        ? `Restored ${r.thread} to ${tildify(r.path)} (${r.bytes} bytes, byte-identical to the archived copy).`
        : `${tildify(r.path)} already holds the archived copy of ${r.thread}; nothing written.`,
    );
    if (r.generations > 1)
      print(`  generation ${r.generation} of 0–${r.generations - 1} (older ones: --generation N)`);
  } finally {
    engine.close();
  }
}

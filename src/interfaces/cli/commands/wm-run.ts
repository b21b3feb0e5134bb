/** The work behind `tapedeck wm …` (loaded only when one of those commands runs). */
import { invalidInput } from '../../../core/errors.js';
import type { WorkingMemory } from '../../../services/working-memory/index.js';
import { type GlobalFlags, openEngine } from '../context.js';
import { print, printJson, warn } from '../output.js';
import { readText } from './read-text.js';

interface ScopeFlags extends GlobalFlags {
  date?: string;
  space?: string;
}

const scope = (f: ScopeFlags) => ({ date: f.date, space: f.space, cwd: process.cwd() });

function show(wm: WorkingMemory, f: GlobalFlags, extra: Record<string, unknown> = {}): void {
  if (f.json) printJson({ ...wm, ...extra });
  else {
    if (wm.stale)
      warn('tapedeck: this stored briefing is behind the store; `tapedeck wm refresh` regenerates it');
    process.stdout.write(wm.markdown);
  }
}

export async function runWmRead(f: ScopeFlags & { cached?: boolean }): Promise<void> {
  const engine = openEngine(f);
  try {
    show(await engine.workingMemory.read({ ...scope(f), regenerate: !f.cached }), f);
  } finally {
    engine.close();
  }
}

export async function runWmRefresh(f: ScopeFlags & { reset?: string[] }): Promise<void> {
  const engine = openEngine(f);
  try {
    const { reset, ...wm } = await engine.workingMemory.refresh({ ...scope(f), reset: f.reset });
    if (!f.json && reset.length) warn(`tapedeck: dropped the edits of ${reset.join(', ')}`);
    show(wm, f, { reset });
  } finally {
    engine.close();
  }
}

export async function runWmEdit(
  f: ScopeFlags & { section?: string; text?: string; file?: string },
): Promise<void> {
  if (f.text !== undefined && f.file !== undefined)
    throw invalidInput('Give either --text or --file, not both');
  let text = f.text;
  if (text === undefined) {
    if (f.file === undefined && process.stdin.isTTY)
      throw invalidInput('Give the new text with --text, --file FILE, or on standard input');
    text = readText(f.file ?? '-');
  }
  const engine = openEngine(f);
  try {
    const { changed, ...wm } = await engine.workingMemory.edit({ ...scope(f), section: f.section, text });
    if (f.json) printJson({ ...wm, changed });
    else
      print(
        changed.length
          ? `Edited ${changed.map((s) => wm.sections.find((x) => x.name === s)!.heading).join(', ')} of ${wm.date} (space ${wm.space}); \`tapedeck wm refresh --reset SECTION\` undoes an edit.`
          : 'No section changed.',
      );
  } finally {
    engine.close();
  }
}

/** The actions of `tapedeck export` and `tapedeck import` (loaded only when one runs). */
import type { Counts } from '../../../services/portability/index.js';
import { type GlobalFlags, openEngine } from '../context.js';
import { print, printJson, warn } from '../output.js';

interface PortabilityFlags extends GlobalFlags {
  space?: string;
  allSpaces?: boolean;
  dryRun?: boolean;
}

/** `5 memories, 3 rules, 2 skills (4 versions), …`, leaving out what is zero. */
export function describeCounts(c: Counts): string {
  const parts = [
    [c.memories, 'memory', 'memories'],
    [c.rules, 'rule', 'rules'],
    [c.skills, 'skill', 'skills', c.skill_versions, 'version'],
    [c.wiki_pages, 'wiki page', 'wiki pages', c.wiki_versions, 'version'],
    [c.threads, 'saved thread', 'saved threads', c.messages, 'message'],
    [c.working_memory_edits, 'working-memory edit', 'working-memory edits'],
  ] as const;
  const out = parts
    .filter((p) => p[0] > 0)
    .map((p) => {
      const main = `${p[0]} ${p[0] === 1 ? p[1] : p[2]}`;
      return p.length === 5 ? `${main} (${p[3]} ${p[4]}${p[3] === 1 ? '' : 's'})` : main;
    });
  return out.length ? out.join(', ') : 'nothing';
}

export async function runExport(dir: string, f: PortabilityFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const r = await engine.portability.export(dir, {
      space: f.space,
      allSpaces: f.allSpaces,
      cwd: process.cwd(),
    });
    if (f.json) printJson(r);
    else
      print(
        `Exported ${describeCounts(r.manifest.counts)} from ${r.manifest.spaces.length === 1 ? 'space' : 'spaces'} ${r.manifest.spaces.join(', ') || '(none)'} to ${r.dir}`,
      );
  } finally {
    engine.close();
  }
}

export async function runImport(dir: string, f: PortabilityFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const r = await engine.portability.import(dir, { space: f.space, dryRun: f.dryRun });
    if (f.json) {
      printJson(r);
      return;
    }
    print(`${r.dry_run ? 'Would import' : 'Imported'} ${describeCounts(r.created)} from ${r.dir}`);
    if (Object.values(r.unchanged).some((n) => n > 0))
      print(`Already here, unchanged: ${describeCounts(r.unchanged)}`);
    if (r.redactions)
      print(`Redacted ${r.redactions} secret${r.redactions === 1 ? '' : 's'} found in the folder`);
    if (r.conflicts.length) {
      warn(
        `${r.conflicts.length} record${r.conflicts.length === 1 ? '' : 's'} kept as they are here (different content):`,
      );
      for (const c of r.conflicts.slice(0, 20)) warn(`  ${c.file}:${c.line} ${c.kind} ${c.key}: ${c.reason}`);
      if (r.conflicts.length > 20) warn(`  … and ${r.conflicts.length - 20} more (--json lists them all)`);
    }
  } finally {
    engine.close();
  }
}

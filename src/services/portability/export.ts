/**
 * Export: read every record of the chosen spaces in one read transaction (a consistent snapshot
 * while agents keep writing), then write the folder under a temporary name and rename it into
 * place, so a failed export leaves nothing half-written behind.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { invalidInput, TapedeckError } from '../../core/errors.js';
import { MEMORY_STATUSES } from '../../core/memory.js';
import type { Rule } from '../../core/rules.js';
import { parseScope } from '../../core/rules.js';
import { SKILL_STAGES } from '../../core/skill.js';
import type { PortabilityDeps } from './deps.js';
import {
  type Counts,
  FILES,
  FORMAT,
  FORMAT_VERSION,
  jsonl,
  type Manifest,
  type MemoryRecord,
  memoryRecord,
  ruleRecord,
  type SkillRecord,
  skillRecord,
  type ThreadLine,
  threadFileName,
  threadLines,
  type WikiRecord,
  type WmEditRecord,
  wikiRecord,
} from './format.js';

export interface Bundle {
  spaces: string[];
  memories: MemoryRecord[];
  rules: Rule[];
  skills: SkillRecord[];
  wiki: WikiRecord[];
  threads: ThreadLine[][];
  workingMemory: WmEditRecord[];
}

export interface ExportResult {
  dir: string;
  manifest: Manifest;
  files: number;
}

const byKey =
  <T>(key: (x: T) => string) =>
  (a: T, b: T) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };

/**
 * Every wiki page of `spaces` (null: every space) with its versions, removed ones included. The
 * wiki store is async (issue #13): read, like the rules, just before the snapshot of the rest.
 */
export async function gatherWiki(deps: PortabilityDeps, spaces: string[] | null): Promise<WikiRecord[]> {
  const out: WikiRecord[] = [];
  for (const space of spaces ?? deps.catalog.spaces())
    for (const p of deps.catalog.wikiPaths(space)) {
      const page = await deps.wiki.get(space, p.path);
      if (page) out.push(await wikiRecord(deps.wiki, page));
    }
  return out;
}

/** Every record of `spaces` (null: every space), in a stable order; rules and wiki read before. */
export function gather(
  deps: PortabilityDeps,
  spaces: string[] | null,
  allRules: Rule[],
  wiki: WikiRecord[],
): Bundle {
  const lanes = spaces ?? deps.catalog.spaces();
  const memories = deps.memories
    .list({ spaces, statuses: [...MEMORY_STATUSES] }, Number.MAX_SAFE_INTEGER, 0)
    .map(memoryRecord)
    .sort(byKey((m) => `${m.created_at}\u0000${m.id}`));
  const rules = allRules
    .filter((r) => {
      const s = parseScope(r.scope);
      return spaces === null || s.kind !== 'space' || spaces.includes(s.value!);
    })
    .map(ruleRecord)
    .sort(byKey((r) => `${r.created_at}\u0000${r.id}`));
  const skills = lanes.flatMap((space) =>
    deps.skills.list({ space, stages: SKILL_STAGES }).map((row) => skillRecord(deps.skills, row)),
  );
  const threads = deps.catalog.savedThreadIds(spaces).flatMap((id) => {
    const lines = threadLines(id, deps);
    return lines ? [lines] : [];
  });
  const workingMemory = lanes.flatMap((space) =>
    deps.catalog.workingMemoryEdits(space).map(
      (e): WmEditRecord => ({
        space: e.space,
        day: e.day,
        section: e.section,
        edit: e.edit,
        edited_at: e.editedAt,
      }),
    ),
  );
  return { spaces: [...lanes].sort(), memories, rules, skills, wiki, threads, workingMemory };
}

export function countsOf(b: Omit<Bundle, 'spaces'>): Counts {
  return {
    memories: b.memories.length,
    rules: b.rules.length,
    skills: b.skills.length,
    skill_versions: b.skills.reduce((n, s) => n + s.versions.length, 0),
    wiki_pages: b.wiki.length,
    wiki_versions: b.wiki.reduce((n, p) => n + p.versions.length, 0),
    threads: b.threads.length,
    messages: b.threads.reduce((n, t) => n + t.filter((l) => l.type === 'message').length, 0),
    working_memory_edits: b.workingMemory.length,
  };
}

/** The folder's files, path → text. */
function filesOf(b: Bundle, manifest: Manifest): Map<string, string> {
  const files = new Map<string, string>();
  files.set(FILES.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  files.set(FILES.memories, jsonl(b.memories));
  files.set(FILES.rules, jsonl(b.rules));
  files.set(FILES.skills, jsonl(b.skills));
  files.set(FILES.wiki, jsonl(b.wiki));
  files.set(FILES.workingMemory, jsonl(b.workingMemory));
  for (const s of b.skills) {
    const v = s.versions[s.version - 1];
    files.set(join(FILES.skillsDir, s.space, s.name, 'SKILL.md'), v.head + v.body);
  }
  for (const p of b.wiki)
    if (!p.deleted_at)
      files.set(join(FILES.wikiDir, p.space, ...p.path.split('/')), p.versions[p.version - 1].content);
  for (const t of b.threads)
    files.set(join(FILES.threadsDir, threadFileName((t[0] as { id: string }).id)), jsonl(t));
  return files;
}

/** Write the export folder `dir` (which must not exist, or be empty). */
export async function writeExport(
  deps: PortabilityDeps,
  dir: string,
  spaces: string[] | null,
): Promise<ExportResult> {
  if (typeof dir !== 'string' || dir.trim() === '') throw invalidInput('Give the folder to export into');
  const target = resolve(dir);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw invalidInput(`${target} exists and is not a folder`);
    if (readdirSync(target).length > 0)
      throw new TapedeckError('CONFLICT', `${target} is not empty; export into a new or empty folder`);
  }
  // Rules and wiki pages live in async stores (issue #13); read just before the snapshot of the rest.
  const rules = await deps.rules.list();
  const wiki = await gatherWiki(deps, spaces);
  const bundle = deps.transaction.read(() => gather(deps, spaces, rules, wiki));
  const manifest: Manifest = {
    format: FORMAT,
    format_version: FORMAT_VERSION,
    tapedeck_version: deps.version,
    created_at: new Date((deps.now ?? Date.now)()).toISOString(),
    spaces: bundle.spaces,
    counts: countsOf(bundle),
  };
  const files = filesOf(bundle, manifest);
  mkdirSync(dirname(target), { recursive: true });
  const tmp = join(
    dirname(target),
    `.${basename(target)}.tapedeck-export-${process.pid}-${Date.now().toString(36)}`,
  );
  try {
    mkdirSync(tmp);
    mkdirSync(join(tmp, FILES.threadsDir));
    for (const [rel, text] of files) {
      mkdirSync(dirname(join(tmp, rel)), { recursive: true });
      writeFileSync(join(tmp, rel), text);
    }
    if (existsSync(target)) rmdirSync(target);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    const err = e as NodeJS.ErrnoException;
    throw new TapedeckError('STORAGE_UNAVAILABLE', `Cannot write the export to ${target}: ${err.message}`);
  }
  return { dir: target, manifest, files: files.size };
}

/**
 * Import: read and validate the whole folder first (every problem reported with its file and
 * line, nothing written), compare each record with what the store holds, then write every new
 * record in one transaction. Ids, versions and timestamps are kept, so importing the same folder
 * twice changes nothing; a record whose id already holds something different is kept as it is
 * here and reported as a conflict (never overwritten).
 */
import { resolve } from 'node:path';
import { invalidInput } from '../../core/errors.js';
import { formatScope, parseScope } from '../../core/rules.js';
import type { PortabilityDeps } from './deps.js';
import { countsOf } from './export.js';
import {
  type Counts,
  jsonl,
  memoryRecord,
  type RequestRecord,
  ruleRecord,
  skillRecord,
  type ThreadHeader,
  threadLines,
  type WmEditRecord,
  wikiRecord,
  zeroCounts,
} from './format.js';
import { type At, type Parsed, problemError, readFolder } from './read-folder.js';
import { type NewRecords, restore } from './restore.js';

export type ImportKind = 'memory' | 'rule' | 'skill' | 'wiki' | 'thread' | 'working-memory';

export interface ImportConflict {
  kind: ImportKind;
  key: string;
  file: string;
  line: number;
  reason: string;
}

export interface ImportResult {
  dir: string;
  dry_run: boolean;
  format_version: number;
  tapedeck_version: string;
  exported_at: string;
  spaces: string[];
  created: Counts;
  unchanged: Counts;
  conflicts: ImportConflict[];
  /** Secrets found in the folder's text and redacted on the way in. */
  redactions: number;
}

function remap(p: Parsed, space: string): void {
  const spaces = new Set<string>([
    ...p.bundle.memories.map((x) => x.value.space),
    ...p.bundle.skills.map((x) => x.value.space),
    ...p.bundle.wiki.map((x) => x.value.space),
    ...p.bundle.threads.map((x) => (x.value[0] as ThreadHeader).space),
    ...p.bundle.workingMemory.map((x) => x.value.space),
  ]);
  if (spaces.size > 1)
    throw invalidInput(
      `The folder holds several spaces (${[...spaces].sort().join(', ')}); --space moves one space's records, so import it without --space`,
    );
  for (const x of [...p.bundle.memories, ...p.bundle.skills, ...p.bundle.wiki, ...p.bundle.workingMemory])
    x.value.space = space;
  for (const t of p.bundle.threads) (t.value[0] as ThreadHeader).space = space;
  for (const r of p.bundle.rules) {
    const s = parseScope(r.value.scope);
    if (s.kind === 'space') r.value.scope = formatScope({ kind: 'space', value: space });
  }
}

export async function runImport(
  deps: PortabilityDeps,
  dir: string,
  opts: { space?: string; dryRun?: boolean },
): Promise<ImportResult> {
  const parsed = readFolder(dir);
  if (opts.space !== undefined && opts.space !== '') remap(parsed, deps.spaces.check(opts.space));
  const b = parsed.bundle;

  const created: NewRecords = {
    memories: [],
    rules: [],
    skills: [],
    wiki: [],
    threads: [],
    workingMemory: [],
  };
  const unchanged = { ...zeroCounts() };
  const conflicts: ImportConflict[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const conflict = (kind: ImportKind, key: string, at: At, reason: string) =>
    conflicts.push({ kind, key, file: at.file, line: at.line, reason });

  const localRules = new Map((await deps.rules.list()).map((r) => [r.id, r]));
  const plan = async () => {
    const importing = new Set(b.memories.map((x) => x.value.id));
    for (const { value: m, at } of b.memories) {
      const local = deps.memories.get(m.id);
      if (!local) {
        if (m.superseded_by && !importing.has(m.superseded_by) && !deps.memories.get(m.superseded_by))
          throw problemError(resolve(dir), [
            { ...at, message: `superseded_by ${m.superseded_by} is neither in the folder nor in this store` },
          ]);
        created.memories.push(m);
      } else if (same(memoryRecord(local), m)) unchanged.memories++;
      else
        conflict(
          'memory',
          m.id,
          at,
          `memory ${m.id} is here with other content or state (space ${local.space})`,
        );
    }
    for (const { value: r, at } of b.rules) {
      const local = localRules.get(r.id);
      if (!local) created.rules.push(r);
      else if (same(ruleRecord(local), r)) unchanged.rules++;
      else conflict('rule', r.id, at, `rule ${r.id} is here with other content`);
    }
    for (const { value: s, at } of b.skills) {
      const row = deps.skills.get(s.space, s.name);
      if (!row) created.skills.push(s);
      else if (same(skillRecord(deps.skills, row), s)) {
        unchanged.skills++;
        unchanged.skill_versions += s.versions.length;
      } else
        conflict(
          'skill',
          `${s.space}/${s.name}`,
          at,
          `skill ${s.name} in space ${s.space} has another history here`,
        );
    }
    for (const { value: p, at } of b.wiki) {
      const page = await deps.wiki.get(p.space, p.path);
      if (!page) created.wiki.push(p);
      else if (same(await wikiRecord(deps.wiki, page), p)) {
        unchanged.wiki_pages++;
        unchanged.wiki_versions += p.versions.length;
      } else
        conflict(
          'wiki',
          `${p.space}/${p.path}`,
          at,
          `wiki page ${p.path} in space ${p.space} has another history here`,
        );
    }
    for (const { value: t, at } of b.threads) {
      const h = t[0] as ThreadHeader;
      const local = threadLines(h.id, { threads: deps.threads, saved: deps.saved, catalog: deps.catalog });
      if (local) {
        if (jsonl(local) === jsonl(t)) {
          unchanged.threads++;
          unchanged.messages += t.filter((l) => l.type === 'message').length;
        } else conflict('thread', h.id, at, `saved thread ${h.id} is here with other messages`);
        continue;
      }
      if (deps.threads.getThread(h.id)) {
        conflict('thread', h.id, at, `an indexed transcript here has the id ${h.id}`);
        continue;
      }
      const taken = t.find(
        (l): l is RequestRecord =>
          l.type === 'request' && deps.saved.getRequest(l.key)?.threadId !== undefined,
      );
      if (taken)
        conflict('thread', h.id, at, `its idempotency key ${taken.key} is used by another thread here`);
      else created.threads.push(t);
    }
    const edits = new Map<string, Map<string, WmEditRecord>>();
    for (const { value: e, at } of b.workingMemory) {
      if (!edits.has(e.space))
        edits.set(
          e.space,
          new Map(
            deps.catalog
              .workingMemoryEdits(e.space)
              .map((x) => [
                `${x.day}/${x.section}`,
                { space: x.space, day: x.day, section: x.section, edit: x.edit, edited_at: x.editedAt },
              ]),
          ),
        );
      const local = edits.get(e.space)!.get(`${e.day}/${e.section}`);
      if (!local) created.workingMemory.push(e);
      else if (same(local, e)) unchanged.working_memory_edits++;
      else
        conflict(
          'working-memory',
          `${e.space}/${e.day}/${e.section}`,
          at,
          `the ${e.section} section of ${e.day} is edited differently here`,
        );
    }
  };

  // One transaction spanning the stores: a failure anywhere, the rules last included, leaves
  // nothing behind on either backend.
  await deps.transaction.write(async () => {
    await plan();
    if (opts.dryRun) return;
    await restore(deps, created);
    if (created.rules.length > 0)
      await deps.rules.write(async (w) => {
        for (const r of created.rules) await w.put(r);
      });
  });
  return {
    dir: resolve(dir),
    dry_run: !!opts.dryRun,
    format_version: parsed.manifest.format_version,
    tapedeck_version: parsed.manifest.tapedeck_version,
    exported_at: parsed.manifest.created_at,
    spaces: [...(parsed.manifest.spaces ?? [])],
    created: countsOf(created),
    unchanged,
    conflicts,
    redactions: parsed.redactions,
  };
}

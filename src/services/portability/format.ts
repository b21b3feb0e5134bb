/**
 * The export folder's format (version 1): one JSON record per line, keys in a fixed order, so the
 * same store always exports the same bytes and import can compare a record with what is stored
 * by comparing text. The records are built here from the stores' rows, for export and for the
 * comparison import makes before it writes anything.
 *
 *   manifest.json          format, versions, created_at, spaces, counts
 *   memories.jsonl         every memory: provenance, supersede chain (valid_to, superseded_by), tombstones
 *   rules.jsonl            every rule (global/agent/project, and the exported spaces' space rules)
 *   skills.jsonl           per skill: stage, every version's SKILL.md, evidence, tests, checks, outcomes, proposals
 *   skills/<space>/<name>/SKILL.md    the current SKILL.md (a readable copy; import reads skills.jsonl)
 *   wiki.jsonl             per page: every version, and the tombstone of a removed page
 *   wiki/<space>/<path>    the current text of live pages (a readable copy)
 *   threads/<id>.jsonl     a saved thread: its header, then messages (with external ids), then idempotency records
 *   working-memory.jsonl   a person's edits of working-memory sections (the generated text is re-derived)
 */
import type { Memory } from '../../core/memory.js';
import { RULE_TEXT_FIELDS, type Rule, type RuleTextField } from '../../core/rules.js';
import type { KnowledgeCatalog } from '../../ports/knowledge-catalog.js';
import type { SavedThreadStore } from '../../ports/saved-thread-store.js';
import type { SkillRow, SkillsReader } from '../../ports/skills-store.js';
import type { TranscriptStore } from '../../ports/transcript-store.js';
import type { WikiPageRow, WikiReader } from '../../ports/wiki-store.js';

export const FORMAT = 'tapedeck-export';
export const FORMAT_VERSION = 1;

export const FILES = {
  manifest: 'manifest.json',
  memories: 'memories.jsonl',
  rules: 'rules.jsonl',
  skills: 'skills.jsonl',
  wiki: 'wiki.jsonl',
  workingMemory: 'working-memory.jsonl',
  threadsDir: 'threads',
  skillsDir: 'skills',
  wikiDir: 'wiki',
} as const;

export interface Counts {
  memories: number;
  rules: number;
  skills: number;
  skill_versions: number;
  wiki_pages: number;
  wiki_versions: number;
  threads: number;
  messages: number;
  working_memory_edits: number;
}

export const zeroCounts = (): Counts => ({
  memories: 0,
  rules: 0,
  skills: 0,
  skill_versions: 0,
  wiki_pages: 0,
  wiki_versions: 0,
  threads: 0,
  messages: 0,
  working_memory_edits: 0,
});

export interface Manifest {
  format: typeof FORMAT;
  format_version: number;
  tapedeck_version: string;
  created_at: string;
  spaces: string[];
  counts: Counts;
}

/** A memory without its derived links (`link`, `provenance.link`), which import re-derives. */
export type MemoryRecord = Omit<Memory, 'link' | 'provenance'> & {
  provenance: {
    thread: string | null;
    step_from: number | null;
    step_to: number | null;
    source: string | null;
  } | null;
};

export interface SkillRecord {
  space: string;
  name: string;
  stage: SkillRow['stage'];
  version: number;
  created_at: string;
  updated_at: string;
  versions: {
    version: number;
    description: string;
    head: string;
    body: string;
    note: string | null;
    created_at: string;
  }[];
  evidence: { uri: string; note: string | null; created_at: string }[];
  tests: { name: string; check: string; created_at: string }[];
  /** Oldest first (the trust badge counts the latest result per test). */
  checks: {
    test: string;
    version: number;
    result: 'passed' | 'failed';
    note: string | null;
    created_at: string;
  }[];
  outcomes: { version: number; outcome: string; note: string | null; created_at: string }[];
  proposals: {
    id: string;
    base_version: number;
    description: string;
    head: string;
    body: string;
    note: string | null;
    status: string;
    created_at: string;
    decided_at: string | null;
  }[];
}

export interface WikiRecord {
  space: string;
  path: string;
  title: string;
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  versions: { version: number; title: string; content: string; created_at: string }[];
}

export interface ThreadHeader {
  type: 'thread';
  id: string;
  agent: string;
  session_id: string;
  project: string | null;
  title: string | null;
  started_at: string | null;
  updated_at: string | null;
  source: string;
  parent_id: string | null;
  space: string;
  source_app: string | null;
  metadata: Record<string, unknown> | null;
  saved_at: string;
  saved_updated_at: string;
}

export interface MessageRecord {
  type: 'message';
  step: number;
  role: string;
  kind: string;
  text: string;
  tool: string | null;
  target: string | null;
  timestamp: string | null;
  line: number;
  external_id: string | null;
  content_key: string | null;
}

export interface RequestRecord {
  type: 'request';
  key: string;
  op: string;
  result: unknown;
  created_at: string;
}

export type ThreadLine = ThreadHeader | MessageRecord | RequestRecord;

export interface WmEditRecord {
  space: string;
  day: string;
  section: string;
  edit: string;
  edited_at: string;
}

/** JSON Lines text of records (a trailing newline after each). */
export const jsonl = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

export function memoryRecord(m: Memory): MemoryRecord {
  return {
    id: m.id,
    title: m.title,
    content: m.content,
    unit_type: m.unit_type,
    labels: [...m.labels],
    importance: m.importance,
    confidence: m.confidence,
    space: m.space,
    project: m.project,
    provenance: m.provenance
      ? {
          thread: m.provenance.thread,
          step_from: m.provenance.step_from,
          step_to: m.provenance.step_to,
          source: m.provenance.source,
        }
      : null,
    event_start: m.event_start,
    event_end: m.event_end,
    created_at: m.created_at,
    updated_at: m.updated_at,
    valid_from: m.valid_from,
    valid_to: m.valid_to,
    superseded_by: m.superseded_by,
    forgotten_at: m.forgotten_at,
    status: m.status,
  };
}

/** A rule's optional text fields (core/rules.ts RULE_TEXT_FIELDS), each as stored. */
const textsOf = (r: Rule) =>
  Object.fromEntries(Object.keys(RULE_TEXT_FIELDS).map((k) => [k, r[k as RuleTextField]])) as Pick<
    Rule,
    RuleTextField
  >;

export function ruleRecord(r: Rule): Rule {
  return {
    id: r.id,
    title: r.title,
    body: r.body,
    scope: r.scope,
    enabled: r.enabled,
    priority: r.priority,
    ...textsOf(r),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function skillRecord(store: SkillsReader, row: SkillRow): SkillRecord {
  return {
    space: row.space,
    name: row.name,
    stage: row.stage,
    version: row.version,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    versions: store.versions(row.id).map((v) => ({
      version: v.version,
      description: v.description,
      head: v.head,
      body: v.body,
      note: v.note,
      created_at: v.createdAt,
    })),
    evidence: store.evidence(row.id).map((e) => ({ uri: e.uri, note: e.note, created_at: e.createdAt })),
    tests: store.tests(row.id).map((t) => ({ name: t.name, check: t.check, created_at: t.createdAt })),
    checks: store
      .checks(row.id, Number.MAX_SAFE_INTEGER)
      .reverse()
      .map((c) => ({
        test: c.test,
        version: c.version,
        result: c.result,
        note: c.note,
        created_at: c.createdAt,
      })),
    outcomes: store
      .outcomes(row.id, Number.MAX_SAFE_INTEGER)
      .reverse()
      .map((o) => ({ version: o.version, outcome: o.outcome, note: o.note, created_at: o.createdAt })),
    proposals: store.proposals(row.id).map((p) => ({
      id: p.id,
      base_version: p.baseVersion,
      description: p.description,
      head: p.head,
      body: p.body,
      note: p.note,
      status: p.status,
      created_at: p.createdAt,
      decided_at: p.decidedAt,
    })),
  };
}

export async function wikiRecord(store: WikiReader, page: WikiPageRow): Promise<WikiRecord> {
  return {
    space: page.space,
    path: page.path,
    title: page.title,
    version: page.version,
    created_at: page.createdAt,
    updated_at: page.updatedAt,
    deleted_at: page.deletedAt,
    versions: (await store.versions(page.id)).map((v) => ({
      version: v.version,
      title: v.title,
      content: v.content,
      created_at: v.createdAt,
    })),
  };
}

/** A saved thread's lines, or undefined when `id` is not a saved thread. */
export function threadLines(
  id: string,
  deps: {
    threads: Pick<TranscriptStore, 'getThread' | 'getSteps'>;
    saved: SavedThreadStore;
    catalog: KnowledgeCatalog;
  },
): ThreadLine[] | undefined {
  const t = deps.threads.getThread(id);
  const info = deps.saved.get(id);
  if (!t || !info) return undefined;
  const header: ThreadHeader = {
    type: 'thread',
    id: t.id,
    agent: t.agent,
    session_id: t.sessionId,
    project: t.project ?? null,
    title: t.title ?? null,
    started_at: t.startedAt ?? null,
    updated_at: t.updatedAt ?? null,
    source: t.source,
    parent_id: t.parentId ?? null,
    space: t.space,
    source_app: info.sourceApp ?? null,
    metadata: info.metadata ?? null,
    saved_at: info.createdAt,
    saved_updated_at: info.updatedAt,
  };
  const keys = new Map(deps.saved.messageKeys(id).map((k) => [k.step, k]));
  const messages = deps.threads
    .getSteps(id, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)
    .map(
      (s): MessageRecord => ({
        type: 'message',
        step: s.step,
        role: s.role,
        kind: s.kind,
        text: s.text,
        tool: s.tool ?? null,
        target: s.target ?? null,
        timestamp: s.timestamp ?? null,
        line: s.source.line,
        external_id: keys.get(s.step)?.externalId ?? null,
        content_key: keys.get(s.step)?.contentKey ?? null,
      }),
    );
  const requests = deps.catalog.savedRequests(id).map(
    (r): RequestRecord => ({
      type: 'request',
      key: r.key,
      op: r.op,
      result: r.result,
      created_at: r.createdAt,
    }),
  );
  return [header, ...messages, ...requests];
}

/** A thread's file name: its id with the characters a file name cannot hold escaped. */
export const threadFileName = (id: string) =>
  `${id.replace(/[%/\\:*?"<>|\u0000-\u001f]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`)}.jsonl`;

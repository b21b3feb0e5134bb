/**
 * Validation of each kind of export record, returning it in the canonical shape (the key order of
 * format.ts) so that it compares byte for byte with what the store would export. Every check that
 * the domain services make on input is made here too: a folder edited by hand, or written by
 * another tool, cannot put a record in the store that Tapedeck itself would have refused.
 */
import { isUnitType, statusOf } from '../../core/memory.js';
import type { Rule } from '../../core/rules.js';
import { formatScope, parseScope, RULE_TEXT_FIELDS, type RuleTextField } from '../../core/rules.js';
import {
  isSkillOutcome,
  isSkillStage,
  parseEvidenceUri,
  parseSkillMd,
  skillDescriptionProblem,
  skillNameProblem,
} from '../../core/skill.js';
import { checkSpaceName } from '../../core/spaces.js';
import { isRecord } from '../../core/text.js';
import { AGENT_IDS, OTHER_AGENT } from '../../core/types.js';
import { normalizeWikiPath } from '../../core/wiki-path.js';
import { WM_SECTIONS } from '../../core/working-memory.js';
import { cleanContent, cleanLabels, cleanProject, MAX_TITLE_CHARS } from '../memory-input.js';
import { MAX_RULE_BODY } from '../rules.js';
import { MAX_WIKI_CONTENT } from '../wiki.js';
import { MAX_SECTION_CHARS } from '../working-memory/index.js';
import { type Fields, RecordError } from './fields.js';
import type {
  MemoryRecord,
  MessageRecord,
  RequestRecord,
  SkillRecord,
  ThreadHeader,
  ThreadLine,
  WikiRecord,
  WmEditRecord,
} from './format.js';

const ID_MAX = 200;
const CONTROL = /[\u0000-\u001f\u007f]/;
const ROLES = ['user', 'assistant', 'tool', 'system'];
const KINDS = ['prompt', 'response', 'reasoning', 'tool_call', 'tool_result', 'summary'];

function id(f: Fields, key: string): string {
  const v = f.str(key, { max: ID_MAX });
  if (CONTROL.test(v)) throw new RecordError(`"${key}" contains control characters`);
  return v;
}

function space(f: Fields, key = 'space'): string {
  const v = f.str(key, { max: 64 });
  checkSpaceName(v, key);
  return v;
}

/** Versions numbered 1..n, each once, in order. */
function numbered<T extends { version: number }>(list: T[], n: number, what: string): T[] {
  if (list.length !== n || list.some((v, i) => v.version !== i + 1))
    throw new RecordError(`"${what}" must hold versions 1 to ${n}, in order`);
  return list;
}

export function readMemory(f: Fields): MemoryRecord {
  // Redacted here (and counted), then held to the same rules as `memory add`.
  const content = cleanContent(f.text('content'));
  const labels = cleanLabels(f.list('labels'));
  const unit = f.str('unit_type');
  if (!isUnitType(unit)) throw new RecordError(`"unit_type" "${unit}" is not a memory type`);
  const prov = f.raw('provenance');
  let provenance: MemoryRecord['provenance'] = null;
  if (prov !== null && prov !== undefined) {
    const p = f.nested(prov, 'provenance');
    provenance = {
      thread: p.optStr('thread', { max: 300 }),
      step_from: p.optInt('step_from'),
      step_to: p.optInt('step_to'),
      source: p.optText('source', { max: 2000 }),
    };
    // The store keeps provenance only with a thread or a source (steps alone mean nothing).
    if (provenance.thread === null && provenance.source === null) provenance = null;
  }
  const forgotten_at = f.optIso('forgotten_at');
  const valid_to = f.optIso('valid_to');
  const status = f.str('status');
  if (status !== statusOf({ forgotten_at, valid_to }))
    throw new RecordError(
      `"status" is "${status}" but the record is ${statusOf({ forgotten_at, valid_to })} (forgotten_at, valid_to)`,
    );
  const record: MemoryRecord = {
    id: id(f, 'id'),
    title: f.text('title', { max: MAX_TITLE_CHARS }),
    content,
    unit_type: unit,
    labels,
    importance: f.num('importance', { min: 0, max: 1 }),
    confidence: f.num('confidence', { min: 0, max: 1 }),
    space: space(f),
    project: cleanProject(f.raw('project')),
    provenance,
    event_start: f.optIso('event_start'),
    event_end: f.optIso('event_end'),
    created_at: f.iso('created_at'),
    updated_at: f.iso('updated_at'),
    valid_from: f.iso('valid_from'),
    valid_to,
    superseded_by: f.optStr('superseded_by', { max: ID_MAX }),
    forgotten_at,
    status,
  };
  return record;
}

export function readRule(f: Fields): Rule {
  return {
    id: id(f, 'id'),
    title: f.text('title', { max: 200 }),
    body: f.text('body', { max: MAX_RULE_BODY }),
    scope: formatScope(parseScope(f.str('scope', { max: 5000 }))),
    enabled: f.bool('enabled'),
    priority: f.int('priority', { min: -1000, max: 1000 }),
    // Each optional text field; absent in exports made before the field existed.
    ...(Object.fromEntries(
      Object.entries(RULE_TEXT_FIELDS).map(([k, max]) => [k, f.optText(k, { max }) ?? null]),
    ) as Pick<Rule, RuleTextField>),
    created_at: f.iso('created_at'),
    updated_at: f.iso('updated_at'),
  };
}

export function readSkill(f: Fields): SkillRecord {
  const name = f.str('name', { max: 64 });
  const problem = skillNameProblem(name);
  if (problem) throw new RecordError(`"name": ${problem}`);
  const stage = f.str('stage');
  if (!isSkillStage(stage))
    throw new RecordError(`"stage" must be draft, active or archived, not "${stage}"`);
  const version = f.int('version', { min: 1 });
  const each = <T>(key: string, read: (g: Fields) => T) =>
    f.list(key).map((v, i) => read(f.nested(v, `${key}[${i}]`)));
  const versions = numbered(
    each('versions', (v) => {
      const head = v.text('head');
      const body = v.text('body', { empty: true });
      const description = v.text('description', { max: 1024 });
      const descProblem = skillDescriptionProblem(description);
      if (descProblem) throw new RecordError(`"description": ${descProblem}`);
      const doc = parseSkillMd(head + body, `${name} v${v.int('version')}`);
      if (doc.name !== name)
        throw new RecordError(`version ${v.int('version')} names the skill "${doc.name}", not "${name}"`);
      return {
        version: v.int('version', { min: 1 }),
        description,
        head,
        body,
        note: v.optText('note', { max: 2000 }),
        created_at: v.iso('created_at'),
      };
    }),
    version,
    'versions',
  );
  const inRange = (v: number, what: string) => {
    if (v > version) throw new RecordError(`${what} names version ${v}; the skill has ${version}`);
    return v;
  };
  return {
    space: space(f),
    name,
    stage,
    version,
    created_at: f.iso('created_at'),
    updated_at: f.iso('updated_at'),
    versions,
    evidence: each('evidence', (e) => {
      const uri = e.str('uri', { max: 600 });
      parseEvidenceUri(uri);
      return { uri, note: e.optText('note', { max: 2000 }), created_at: e.iso('created_at') };
    }),
    tests: each('tests', (t) => ({
      name: t.str('name', { max: 120 }),
      check: t.text('check', { empty: true, max: 2000 }),
      created_at: t.iso('created_at'),
    })),
    checks: each('checks', (c) => {
      const result = c.str('result');
      if (result !== 'passed' && result !== 'failed')
        throw new RecordError('a check result is passed or failed');
      return {
        test: c.str('test', { max: 120 }),
        version: inRange(c.int('version', { min: 1 }), 'a check'),
        result: result as 'passed' | 'failed',
        note: c.optText('note', { max: 2000 }),
        created_at: c.iso('created_at'),
      };
    }),
    outcomes: each('outcomes', (o) => {
      const outcome = o.str('outcome');
      if (!isSkillOutcome(outcome)) throw new RecordError(`unknown outcome "${outcome}"`);
      return {
        version: inRange(o.int('version', { min: 1 }), 'an outcome'),
        outcome,
        note: o.optText('note', { max: 2000 }),
        created_at: o.iso('created_at'),
      };
    }),
    proposals: each('proposals', (p) => {
      const status = p.str('status');
      if (!['pending', 'accepted', 'rejected'].includes(status))
        throw new RecordError(`a proposal's status is pending, accepted or rejected, not "${status}"`);
      return {
        id: id(p, 'id'),
        base_version: p.int('base_version', { min: 1 }),
        description: p.text('description', { max: 1024 }),
        head: p.text('head'),
        body: p.text('body', { empty: true }),
        note: p.optText('note', { max: 2000 }),
        status,
        created_at: p.iso('created_at'),
        decided_at: p.optIso('decided_at'),
      };
    }),
  };
}

export function readWiki(f: Fields): WikiRecord {
  const path = f.str('path', { max: 300 });
  if (normalizeWikiPath(path) !== path) throw new RecordError(`"path" "${path}" is not a wiki page path`);
  const version = f.int('version', { min: 1 });
  const versions = numbered(
    f.list('versions').map((v, i) => {
      const g = f.nested(v, `versions[${i}]`);
      return {
        version: g.int('version', { min: 1 }),
        title: g.text('title', { max: 200 }),
        content: g.text('content', { max: MAX_WIKI_CONTENT }),
        created_at: g.iso('created_at'),
      };
    }),
    version,
    'versions',
  );
  return {
    space: space(f),
    path,
    title: f.text('title', { max: 200 }),
    version,
    created_at: f.iso('created_at'),
    updated_at: f.iso('updated_at'),
    deleted_at: f.optIso('deleted_at'),
    versions,
  };
}

export function readThreadLine(f: Fields, first: boolean): ThreadLine {
  const type = f.str('type');
  if (first !== (type === 'thread'))
    throw new RecordError(
      first ? 'the first line must be the thread ({"type":"thread", …})' : 'a second "thread" line',
    );
  if (type === 'thread') {
    const agent = f.str('agent');
    if (![...AGENT_IDS, OTHER_AGENT].includes(agent as never))
      throw new RecordError(`unknown agent "${agent}"`);
    const metadata = f.raw('metadata');
    if (metadata !== null && metadata !== undefined && !isRecord(metadata))
      throw new RecordError('"metadata" must be a JSON object or null');
    const header: ThreadHeader = {
      type: 'thread',
      id: id(f, 'id'),
      agent,
      session_id: f.str('session_id', { max: 300 }),
      project: f.optStr('project', { max: 4096 }),
      title: f.optText('title', { max: 300 }),
      started_at: f.optIso('started_at'),
      updated_at: f.optIso('updated_at'),
      source: f.str('source', { max: 4096 }),
      parent_id: f.optStr('parent_id', { max: ID_MAX }),
      space: space(f),
      source_app: f.optStr('source_app', { max: 100 }),
      metadata: (metadata as Record<string, unknown> | null | undefined) ?? null,
      saved_at: f.iso('saved_at'),
      saved_updated_at: f.iso('saved_updated_at'),
    };
    return header;
  }
  if (type === 'message') {
    const role = f.str('role');
    const kind = f.str('kind');
    if (!ROLES.includes(role)) throw new RecordError(`unknown role "${role}"`);
    if (!KINDS.includes(kind)) throw new RecordError(`unknown kind "${kind}"`);
    const m: MessageRecord = {
      type: 'message',
      step: f.int('step', { min: 0 }),
      role,
      kind,
      text: f.text('text'),
      tool: f.optStr('tool', { max: 200 }),
      target: f.optText('target', { max: 4096 }),
      timestamp: f.optStr('timestamp', { max: 64 }),
      line: f.int('line', { min: 1 }),
      external_id: f.optStr('external_id', { max: ID_MAX }),
      content_key: f.optStr('content_key', { max: 200 }),
    };
    return m;
  }
  if (type === 'request') {
    const r: RequestRecord = {
      type: 'request',
      key: id(f, 'key'),
      op: f.str('op', { max: 50 }),
      result: f.raw('result') ?? null,
      created_at: f.iso('created_at'),
    };
    return r;
  }
  throw new RecordError(`unknown line type "${type}" (thread, message or request)`);
}

export function readWmEdit(f: Fields): WmEditRecord {
  const day = f.str('day');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
    throw new RecordError(`"day" must be YYYY-MM-DD, not "${day}"`);
  const section = f.str('section');
  if (!(WM_SECTIONS as readonly string[]).includes(section))
    throw new RecordError(`unknown section "${section}"; the sections are ${WM_SECTIONS.join(', ')}`);
  const at = f.raw('edited_at');
  return {
    space: space(f),
    day,
    section,
    edit: f.text('edit', { max: MAX_SECTION_CHARS }),
    edited_at: at === '' ? '' : f.iso('edited_at'),
  };
}

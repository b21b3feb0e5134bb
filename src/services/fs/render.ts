/**
 * Records as Markdown files: YAML-style front matter (what `stat` would say, plus provenance)
 * and the text. A memory's file read back through `write` keeps its meaning: the read-only keys
 * are ignored there, the editable ones applied (memory-file.ts).
 */
import { yamlScalar } from '../../core/front-matter.js';
import type { Memory } from '../../core/memory.js';
import { threadLink } from '../../core/memory.js';
import type { Rule } from '../../core/rules.js';
import type { StepRecord, ThreadRecord } from '../../ports/transcript-store.js';

type Scalar = string | number | boolean | null | undefined | string[];

/** `key: value` lines between `---` fences; null and undefined values are left out. */
export function frontMatter(fields: [string, Scalar][]): string {
  const lines = ['---'];
  for (const [k, v] of fields) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) lines.push(`${k}: [${v.map(yamlScalar).join(', ')}]`);
    else if (typeof v === 'string') lines.push(`${k}: ${yamlScalar(v)}`);
    else lines.push(`${k}: ${v}`);
  }
  lines.push('---');
  return `${lines.join('\n')}\n`;
}

export function renderMemory(m: Memory): string {
  const p = m.provenance;
  const steps =
    p?.step_from === null || p?.step_from === undefined
      ? null
      : p.step_to !== null && p.step_to !== p.step_from
        ? `${p.step_from}-${p.step_to}`
        : String(p.step_from);
  return (
    frontMatter([
      ['id', m.id],
      ['title', m.title],
      ['type', m.unit_type],
      ['labels', m.labels],
      ['importance', m.importance],
      ['confidence', m.confidence],
      ['space', m.space],
      ['project', m.project],
      ['status', m.status],
      ['thread', p?.thread],
      ['steps', steps],
      ['source', p?.source],
      ['event_start', m.event_start],
      ['event_end', m.event_end],
      ['created_at', m.created_at],
      ['updated_at', m.updated_at],
      ['valid_from', m.valid_from],
      ['valid_to', m.valid_to],
      ['superseded_by', m.superseded_by],
      ['forgotten_at', m.forgotten_at],
      ['link', m.link],
    ]) + `\n${m.content}\n`
  );
}

export function renderRule(r: Rule): string {
  return (
    frontMatter([
      ['id', r.id],
      ['title', r.title],
      ['scope', r.scope],
      ['priority', r.priority],
      ['enabled', r.enabled],
      ['created_at', r.created_at],
      ['updated_at', r.updated_at],
    ]) + `\n${r.body}\n`
  );
}

export function renderThreadHead(t: ThreadRecord): string {
  return frontMatter([
    ['id', t.id],
    ['title', t.title ?? null],
    ['agent', t.agent],
    ['project', t.project ?? null],
    ['space', t.space],
    ['started_at', t.startedAt ?? null],
    ['updated_at', t.updatedAt ?? null],
    ['steps', t.stepCount],
    ['parent', t.parentId ?? null],
    ['source', t.source],
    ['link', threadLink(t.id)],
  ]);
}

/** One step as a section: `## #<step> <role>/<kind> · <tool> <target> · <time> · line <n>`. */
export function renderStep(s: StepRecord): string {
  const tool = s.tool
    ? ` · ${s.tool}${s.target ? ` ${s.target.replace(/\s+/g, ' ').slice(0, 200)}` : ''}`
    : '';
  const when = s.timestamp ? ` · ${s.timestamp}` : '';
  return `\n## #${s.step} ${s.role}/${s.kind}${tool}${when} · line ${s.source.line}\n\n${s.text}\n`;
}

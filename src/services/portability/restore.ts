/**
 * Writing an import's new records through each domain's store, ids, versions and timestamps as
 * they were exported. Runs inside the import's one transaction (the stores' own transactions
 * join it, the async ones through storage/sql.ts's scope), so a failure anywhere leaves nothing
 * behind. Rules are written by the import itself, through the async rule store (import.ts).
 */
import { memoryLink, threadLink } from '../../core/memory.js';
import type { Rule } from '../../core/rules.js';
import type { SkillStage } from '../../core/skill.js';
import type { Role, StepKind, ThreadAgent } from '../../core/types.js';
import type { WmSectionName } from '../../core/working-memory.js';
import { prepareStep } from '../../ingest/prepare-step.js';
import type { PortabilityDeps } from './deps.js';
import type { Bundle } from './export.js';
import type { MemoryRecord, MessageRecord, RequestRecord, ThreadHeader, ThreadLine } from './format.js';

/** Stored text is kept as it is: no cap applies again on the way back in. */
const KEEP_TEXT = { maxTextChars: Number.MAX_SAFE_INTEGER, toolOutputChars: Number.MAX_SAFE_INTEGER };

/** What an import creates, by kind. */
export interface NewRecords {
  memories: MemoryRecord[];
  rules: Rule[];
  skills: Bundle['skills'];
  wiki: Bundle['wiki'];
  threads: ThreadLine[][];
  workingMemory: Bundle['workingMemory'];
}

export async function restore(deps: PortabilityDeps, created: NewRecords): Promise<void> {
  deps.memories.write((w) => {
    for (const m of created.memories)
      w.insert({
        ...m,
        link: memoryLink(m.id),
        provenance: m.provenance
          ? {
              ...m.provenance,
              link: m.provenance.thread ? threadLink(m.provenance.thread, m.provenance.step_from) : null,
            }
          : null,
      });
  });
  deps.skills.write((w) => {
    for (const s of created.skills) {
      const current = s.versions[s.version - 1];
      const id = w.insertSkill({
        space: s.space,
        name: s.name,
        description: current.description,
        head: current.head,
        body: current.body,
        version: s.version,
        stage: s.stage as SkillStage,
        createdAt: s.created_at,
        updatedAt: s.updated_at,
      });
      for (const v of s.versions) w.insertVersion(id, { ...v, createdAt: v.created_at });
      for (const e of s.evidence) w.addEvidence(id, { uri: e.uri, note: e.note, createdAt: e.created_at });
      for (const t of s.tests) w.upsertTest(id, { name: t.name, check: t.check, createdAt: t.created_at });
      for (const c of s.checks) w.addCheck(id, { ...c, createdAt: c.created_at });
      for (const o of s.outcomes)
        w.addOutcome(id, {
          version: o.version,
          outcome: o.outcome as never,
          note: o.note,
          createdAt: o.created_at,
        });
      for (const p of s.proposals)
        w.insertProposal({
          id: p.id,
          skillId: id,
          baseVersion: p.base_version,
          description: p.description,
          head: p.head,
          body: p.body,
          note: p.note,
          status: p.status as 'pending',
          createdAt: p.created_at,
          decidedAt: p.decided_at,
        });
    }
  });
  await deps.wiki.write(async (w) => {
    for (const p of created.wiki) {
      const current = p.versions[p.version - 1];
      const id = await w.insertPage({
        space: p.space,
        path: p.path,
        title: current.title,
        content: current.content,
        version: p.version,
        createdAt: p.created_at,
        updatedAt: p.updated_at,
        deletedAt: p.deleted_at,
      });
      for (const v of p.versions) await w.insertVersion(id, { ...v, createdAt: v.created_at });
    }
  });
  for (const t of created.threads) restoreThread(deps, t);
  for (const e of created.workingMemory)
    await deps.workingMemory.setEdit(e.space, e.day, e.section as WmSectionName, e.edit, e.edited_at);
}

function restoreThread(deps: PortabilityDeps, lines: ThreadLine[]): void {
  const h = lines[0] as ThreadHeader;
  deps.threads.write((w) => {
    w.upsertThread({
      id: h.id,
      agent: h.agent as ThreadAgent,
      sessionId: h.session_id,
      project: h.project ?? undefined,
      title: h.title ?? undefined,
      startedAt: h.started_at ?? undefined,
      updatedAt: h.updated_at ?? undefined,
      source: h.source,
      parentId: h.parent_id ?? undefined,
    });
    deps.saved.setSpace(h.id, h.space);
    deps.saved.put({
      threadId: h.id,
      sourceApp: h.source_app ?? undefined,
      metadata: h.metadata ?? undefined,
      createdAt: h.saved_at,
      updatedAt: h.saved_updated_at,
    });
    for (const m of lines.filter((l): l is MessageRecord => l.type === 'message')) {
      const step = prepareStep(
        {
          step: m.step,
          role: m.role as Role,
          kind: m.kind as StepKind,
          text: m.text,
          tool: m.tool ?? undefined,
          target: m.target ?? undefined,
          timestamp: m.timestamp ?? undefined,
          source: { path: h.source, line: m.line },
        },
        KEEP_TEXT,
      );
      if (!step) continue;
      w.upsertStep(h.id, step, true);
      if (m.content_key !== null)
        deps.saved.addMessage(h.id, {
          step: m.step,
          externalId: m.external_id ?? undefined,
          contentKey: m.content_key,
        });
    }
    for (const r of lines.filter((l): l is RequestRecord => l.type === 'request'))
      deps.saved.saveRequest({
        key: r.key,
        threadId: h.id,
        op: r.op,
        result: r.result,
        createdAt: r.created_at,
      });
    w.refreshThreadCounts(h.id);
  });
}

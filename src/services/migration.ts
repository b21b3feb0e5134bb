/**
 * Copying a store into another (`tapedeck migrate --to postgres://…`): the indexed transcripts
 * thread by thread (each in its own transaction, skipped when the target already has it whole, so
 * an interrupted run resumes where it stopped and a second run changes nothing), then the
 * knowledge through export/import (one transaction, idempotent). API keys are not copied: mint
 * the team server's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seqOf } from '../core/types.js';
import { withTerms } from '../ingest/prepare-step.js';
import type { ThreadRecord, TranscriptStore } from '../ports/transcript-store.js';
import type { ImportResult, PortabilityService } from './portability/index.js';

export interface MigrationSide {
  transcripts: TranscriptStore;
  portability: PortabilityService;
}

export interface MigrationProgress {
  threads: number;
  copied: number;
  skipped: number;
  steps: number;
}

export interface MigrationResult extends MigrationProgress {
  from: string;
  to: string;
  knowledge: Pick<ImportResult, 'created' | 'unchanged' | 'conflicts'>;
}

/** Saved threads travel with the knowledge (export/import), not as indexed transcripts. */
const isSaved = (t: ThreadRecord) => t.source.startsWith('tapedeck://');
const PAGE = 500;
/** More steps than any thread has; getSteps still pages by `limit`. */
const ALL_STEPS = Number.MAX_SAFE_INTEGER;

export async function migrateStore(
  source: MigrationSide,
  target: MigrationSide,
  onProgress: (p: MigrationProgress) => void = () => {},
): Promise<MigrationResult> {
  const p: MigrationProgress = { threads: 0, copied: 0, skipped: 0, steps: 0 };
  for (let offset = 0; ; offset += PAGE) {
    const page = source.transcripts.listThreads({}, PAGE, offset);
    for (const t of page) {
      if (isSaved(t)) continue;
      p.threads++;
      if (copyThread(source.transcripts, target.transcripts, t)) {
        p.copied++;
        p.steps += t.stepCount;
      } else p.skipped++;
      if (p.threads % 50 === 0) onProgress({ ...p });
    }
    if (page.length < PAGE) break;
  }
  onProgress({ ...p });
  const dir = mkdtempSync(join(tmpdir(), 'tapedeck-migrate-'));
  try {
    const folder = join(dir, 'export');
    await source.portability.export(folder, { allSpaces: true });
    const r = await target.portability.import(folder);
    return {
      ...p,
      from: source.transcripts.path,
      to: target.transcripts.path,
      knowledge: { created: r.created, unchanged: r.unchanged, conflicts: r.conflicts },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Copy one thread whole; false when the target already holds it as it is here. */
function copyThread(from: TranscriptStore, to: TranscriptStore, t: ThreadRecord): boolean {
  const there = to.getThread(t.id);
  if (there && there.stepCount === t.stepCount && there.updatedAt === t.updatedAt) return false;
  const steps = from.getSteps(t.id, 0, ALL_STEPS, Math.max(t.stepCount, 1) + 1_000);
  to.write((w) => {
    w.upsertThread({
      id: t.id,
      agent: t.agent,
      sessionId: t.sessionId,
      project: t.project,
      title: t.title,
      startedAt: t.startedAt,
      updatedAt: t.updatedAt,
      source: t.source,
      parentId: t.parentId,
    });
    for (const s of steps) {
      const { threadId: _, ...step } = s;
      w.upsertStep(t.id, withTerms(step), !there);
    }
    if (there) w.retainSteps(t.id, new Set(steps.map(seqOf)));
    w.refreshThreadCounts(t.id);
    if (t.sourceGone) w.markSourceGone(t.source, t.sourceGone.reason, t.sourceGone.at);
  });
  return true;
}

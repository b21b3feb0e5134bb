/** The shapes the skills service returns (what `--json` prints and MCP tools render). */
import { type SkillBadge, type SkillOutcome, type SkillStage, trustBadge } from '../../core/skill.js';
import type { SkillRow, TrustCounts } from '../../ports/skills-store.js';

/** Where a call works: an explicit space, or the one configured for the caller's directory. */
export interface SpaceScope {
  space?: string;
  /** The caller's working directory (CLI), used for the per-project default space. */
  cwd?: string;
}

export interface SkillSummary {
  name: string;
  description: string;
  stage: SkillStage;
  version: number;
  badge: SkillBadge;
  space: string;
  updated_at: string;
}

export interface SkillTrust {
  passed_checks: number;
  failed_checks: number;
  successful_outcomes: number;
  outcomes: Record<SkillOutcome, number>;
  evidence: number;
}

export interface SkillDetail extends SkillSummary {
  /** The version shown (the current one unless another was asked for). */
  shown_version: number;
  body: string;
  /** The whole SKILL.md of the version shown, front matter included. */
  content: string;
  created_at: string;
  trust: SkillTrust;
  evidence: { uri: string; note: string | null; created_at: string }[];
  tests: { name: string; check: string; last_result: 'passed' | 'failed' | null }[];
  recent_outcomes: { version: number; outcome: SkillOutcome; note: string | null; created_at: string }[];
  versions: { version: number; note: string | null; created_at: string }[];
  pending_proposals: { id: string; base_version: number; note: string | null; created_at: string }[];
}

export interface SkillHit {
  name: string;
  description: string;
  badge: SkillBadge;
  stage: SkillStage;
  version: number;
  score: number;
}

export interface SkillIndexEntry {
  name: string;
  description: string;
  badge: SkillBadge;
  stage: SkillStage;
}

export function trustView(c: TrustCounts): SkillTrust {
  return {
    passed_checks: c.passedChecks,
    failed_checks: c.failedChecks,
    successful_outcomes: c.successfulOutcomes,
    outcomes: { ...c.outcomes },
    evidence: c.evidence,
  };
}

export const badgeOf = (row: SkillRow, c: TrustCounts | undefined): SkillBadge =>
  trustBadge({
    stage: row.stage,
    passedChecks: c?.passedChecks ?? 0,
    successfulOutcomes: c?.successfulOutcomes ?? 0,
    evidence: c?.evidence ?? 0,
  });

export function summaryOf(row: SkillRow, c: TrustCounts | undefined): SkillSummary {
  return {
    name: row.name,
    description: row.description,
    stage: row.stage,
    version: row.version,
    badge: badgeOf(row, c),
    space: row.space,
    updated_at: row.updatedAt,
  };
}

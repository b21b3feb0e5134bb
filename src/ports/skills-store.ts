/** Storage for skills: the current SKILL.md, every earlier version, and the record behind trust. */
import type { ParsedQuery } from '../core/query.js';
import type { SkillOutcome, SkillStage, TrustRecord } from '../core/skill.js';

export interface SkillRow {
  /** Storage key; never shown (skills are addressed by space + name). */
  id: number;
  space: string;
  name: string;
  description: string;
  head: string;
  body: string;
  version: number;
  stage: SkillStage;
  createdAt: string;
  updatedAt: string;
}

export interface SkillVersionRow {
  version: number;
  description: string;
  head: string;
  body: string;
  note: string | null;
  createdAt: string;
}

export interface SkillEvidenceRow {
  uri: string;
  note: string | null;
  createdAt: string;
}

export interface SkillTestRow {
  name: string;
  check: string;
  createdAt: string;
}

export interface SkillCheckRow {
  test: string;
  version: number;
  result: 'passed' | 'failed';
  note: string | null;
  createdAt: string;
}

export interface SkillOutcomeRow {
  version: number;
  outcome: SkillOutcome;
  note: string | null;
  createdAt: string;
}

export type ProposalStatus = 'pending' | 'accepted' | 'rejected';

export interface SkillProposalRow {
  id: string;
  skillId: number;
  /** The version the proposal was written against. */
  baseVersion: number;
  description: string;
  head: string;
  body: string;
  note: string | null;
  status: ProposalStatus;
  createdAt: string;
  decidedAt: string | null;
}

/** Trust inputs per skill id (the current version's record), plus failures for display. */
export interface TrustCounts extends Omit<TrustRecord, 'stage'> {
  failedChecks: number;
  outcomes: Record<SkillOutcome, number>;
}

export interface SkillListFilter {
  space: string;
  stages?: readonly SkillStage[];
}

export type SkillField = 'name' | 'description' | 'body';

export interface SkillSearchResult {
  /** Skills in the filter. */
  total: number;
  /** Per query term (same order as `query.terms`): how many skills in the filter contain it. */
  termDocs: number[];
  candidates: {
    row: SkillRow;
    /** FTS5 bm25, higher is better (a tie-breaker). */
    bm25: number;
    /** Per field, the indexes of the query terms found in it. */
    matched: Record<SkillField, number[]>;
  }[];
}

/** Reads, available both outside and inside a write transaction. */
export interface SkillsReader {
  get(space: string, name: string): SkillRow | undefined;
  list(filter: SkillListFilter): SkillRow[];
  /**
   * Skills matching any query term (exclusions applied), with which terms matched in which field
   * and how many skills of the filter each term matches: enough to rank without relying on bm25,
   * whose IDF vanishes in the small collections skills come in.
   */
  search(query: ParsedQuery, filter: SkillListFilter, limit: number): SkillSearchResult;
  version(skillId: number, version: number): SkillVersionRow | undefined;
  versions(skillId: number): SkillVersionRow[];
  evidence(skillId: number): SkillEvidenceRow[];
  tests(skillId: number): SkillTestRow[];
  checks(skillId: number, limit: number): SkillCheckRow[];
  outcomes(skillId: number, limit: number): SkillOutcomeRow[];
  /** Trust counts of many skills at once (missing ids have no record). */
  trust(skillIds: readonly number[]): Map<number, TrustCounts>;
  proposals(skillId: number, status?: ProposalStatus): SkillProposalRow[];
}

/** Writes; every call happens inside the transaction opened by `SkillsStore.write`. */
export interface SkillsWriter extends SkillsReader {
  insertSkill(row: Omit<SkillRow, 'id'>): number;
  /** Set the current content (the caller also records the version). */
  updateContent(
    id: number,
    content: Pick<SkillRow, 'description' | 'head' | 'body' | 'version' | 'updatedAt'>,
  ): void;
  insertVersion(skillId: number, v: SkillVersionRow): void;
  setStage(id: number, stage: SkillStage, at: string): void;
  /** False when the link was already there. */
  addEvidence(skillId: number, e: SkillEvidenceRow): boolean;
  removeEvidence(skillId: number, uri: string): boolean;
  /** Create or update a test case; returns whether it was created. */
  upsertTest(skillId: number, t: SkillTestRow): boolean;
  addCheck(skillId: number, c: SkillCheckRow): void;
  addOutcome(skillId: number, o: SkillOutcomeRow): void;
  insertProposal(p: SkillProposalRow): void;
  decideProposal(id: string, status: Exclude<ProposalStatus, 'pending'>, at: string): void;
}

export interface SkillsStore extends SkillsReader {
  /** Run `fn` in one IMMEDIATE transaction: all of it or nothing. */
  write<T>(fn: (w: SkillsWriter) => T): T;
}

import type { WmItem, WmSectionName } from '../core/working-memory.js';

/** One stored section: what was generated, and a person's replacement text if any. */
export interface StoredSection {
  section: WmSectionName;
  /** The generated items (kept even while a person's edit is shown instead). */
  items: WmItem[];
  /** When the items were generated (ISO); '' for a section only ever edited. */
  generatedAt: string;
  /** A person's Markdown for the section body; null when the generated one is shown. */
  edit: string | null;
  editedAt: string | null;
}

/** The briefing of one space and day. */
export interface StoredBriefing {
  space: string;
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** What the store looked like when it was generated (see WorkingMemoryStore.fingerprint). */
  fingerprint: string;
  generatedAt: string;
  sections: StoredSection[];
}

/** Storage for working-memory briefings (storage/working-memory-store.ts, both backends); async. */
export interface WorkingMemoryStore {
  /** False on a read-only database: a briefing is then generated but not kept. */
  readonly writable: boolean;
  get(space: string, day: string): Promise<StoredBriefing | undefined>;
  /**
   * Save a regeneration in one write transaction: the fingerprint and every section's
   * generated items. A person's edits are never touched, so a concurrent edit is not lost.
   */
  saveGenerated(briefing: {
    space: string;
    day: string;
    fingerprint: string;
    generatedAt: string;
    sections: { section: WmSectionName; items: WmItem[] }[];
  }): Promise<void>;
  /** Set (text) or drop (null) a person's edit of one section; true when something changed. */
  setEdit(
    space: string,
    day: string,
    section: WmSectionName,
    text: string | null,
    at: string,
  ): Promise<boolean>;
  /**
   * A cheap summary of what a briefing is built from: the threads active since `since` (count,
   * latest update, steps), and the memories of `space` (latest update per status, the highest row
   * id, how many active ones changed since `since`). Any add, update, supersede, forget or restore
   * changes it; only purging a memory older than the window goes unseen (the age rule catches it).
   */
  fingerprint(space: string, since: string): Promise<string>;
}

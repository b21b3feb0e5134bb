/**
 * Export and import: one portable folder (JSON Lines plus Markdown copies) with memories, rules,
 * skills, wiki pages, saved threads and working-memory edits, that round-trips without loss:
 * export → import into an empty home → export again gives the same bytes (but the manifest's
 * created_at). Indexed transcripts are not exported: they are re-read from the agents' own files.
 */
import { invalidInput } from '../../core/errors.js';
import type { PortabilityDeps } from './deps.js';
import { type ExportResult, writeExport } from './export.js';
import { type ImportResult, runImport } from './import.js';

export interface ExportOptions {
  /** The space to export (default: the configured one for `cwd`). */
  space?: string;
  /** Every space (rules of every space included). */
  allSpaces?: boolean;
  cwd?: string;
}

export interface ImportOptions {
  /** Put every record into this space instead of the one it was exported from (one-space folders only). */
  space?: string;
  /** Validate and compare, write nothing. */
  dryRun?: boolean;
}

/** `engine.portability`: what `tapedeck export` and `tapedeck import` call. */
export interface PortabilityService {
  /** Write the folder `dir` (new or empty). */
  export(dir: string, opts?: ExportOptions): Promise<ExportResult>;
  /**
   * Restore a folder: all of it or nothing, ids and timestamps kept, idempotent; records that
   * exist here with other content are reported as conflicts and left as they are.
   */
  import(dir: string, opts?: ImportOptions): Promise<ImportResult>;
}

export function createPortabilityService(deps: PortabilityDeps): PortabilityService {
  return {
    async export(dir, opts = {}) {
      if (opts.allSpaces && opts.space) throw invalidInput('Give --space or --all-spaces, not both');
      const spaces = opts.allSpaces ? null : [deps.spaces.resolve({ space: opts.space, cwd: opts.cwd })];
      return writeExport(deps, dir, spaces);
    },
    import: (dir, opts = {}) => runImport(deps, dir, opts),
  };
}

export type { PortabilityDeps, Transactions } from './deps.js';
export type { ExportResult } from './export.js';
export type { Counts, Manifest } from './format.js';
export type { ImportConflict, ImportResult } from './import.js';

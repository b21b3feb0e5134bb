import type { AgentId, ParseIssue, Step, ThreadMeta } from '../core/types.js';

/** Environment a source adapter may consult to find transcripts. */
export interface LocateEnv {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** A transcript file found on disk. */
export interface TranscriptFile {
  path: string;
  /** `lines`: JSONL read incrementally from a byte offset; `document`: one JSON document re-read whole when it changes. */
  mode: 'lines' | 'document';
}

/**
 * Receives what a parser produces. Steps are upserts keyed by their internal order (`seq`, else
 * the step number), so re-emitting a step (after resuming from a saved state) replaces it.
 * `truncate(from)` deletes steps whose order is >= from (Gemini `$rewindTo`). `thread` merges
 * metadata into the thread.
 */
export interface ParseSink {
  /** Set `sessionId` (required; ingest falls back to the file name) — ingest derives `id` = `<agent>:<sessionId>`. */
  thread(meta: Partial<Omit<ThreadMeta, 'id' | 'agent' | 'source'>>): void;
  step(step: Step): void;
  truncate(from: number): void;
  issue(issue: ParseIssue): void;
}

/**
 * Incremental parser for one JSONL file. The ingest layer feeds complete lines in order and saves
 * `state()` with the byte offset after the last line, then later builds a new parser from that
 * state and continues with the lines that were appended. Parsers never throw on bad input: they
 * report it through `sink.issue` and go on.
 */
export interface LineParser {
  line(text: string, lineNo: number, sink: ParseSink): void;
  /** JSON-serializable snapshot; must be small (no whole transcripts). */
  state(): unknown;
}

/** Adapter for one agent's transcripts. */
export interface SourceAdapter {
  id: AgentId;
  displayName: string;
  /**
   * Every transcript file for this agent on this machine. Synchronous and cheap: directory
   * listings only (readdirSync withFileTypes), no stat or reads of transcripts, because it runs
   * before every MCP answer. Missing roots yield []; unreadable directories are reported and skipped.
   */
  locate(env: LocateEnv, report: (issue: ParseIssue) => void): TranscriptFile[];
  /** A parser for a `lines` file, fresh (state undefined) or resumed. */
  createLineParser(path: string, state?: unknown): LineParser;
  /** Parse a whole `document` file. */
  parseDocument(path: string, text: string, sink: ParseSink): void;
}

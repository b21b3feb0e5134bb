/**
 * A session's transcript as messages for a saved-thread upload (hooks pushing to a remote Tapedeck
 * server): the agent's own parser reads the file, each message keeps its step number as its
 * external id (so a re-upload is deduplicated), and secrets are redacted before anything leaves
 * the machine.
 */
import { closeSync, existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { redact } from '../core/redact.js';
import { type AgentId, type Step, seqOf, type ThreadMeta } from '../core/types.js';
import { readLines } from '../ingest/line-reader.js';
import { openRegularFile, stripBom } from '../ingest/regular-file.js';
import type { ParseSink } from '../ports/source.js';
import { getAdapter } from '../sources/registry.js';

export interface SessionMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  timestamp?: string;
  /** The step number: stable while the transcript only grows. */
  external_id: string;
  step: number;
}

export interface SessionTranscript {
  meta: Partial<ThreadMeta>;
  messages: SessionMessage[];
  issues: number;
}

const MAX_LINE = 32 * 1024 * 1024;
const MAX_MESSAGE_CHARS = 100_000;

/** Antigravity's hook names the compacted transcript; the full one beside it is preferred. */
export function preferredTranscript(agent: AgentId, path: string): string {
  if (agent === 'antigravity' && basename(path) === 'transcript.jsonl') {
    const full = join(dirname(path), 'transcript_full.jsonl');
    if (existsSync(full)) return full;
  }
  return path;
}

function toMessage(s: Step): SessionMessage | null {
  let role: SessionMessage['role'];
  let text = s.text;
  if (s.kind === 'prompt') role = 'user';
  else if (s.kind === 'response' || s.kind === 'summary') role = 'assistant';
  else if (s.kind === 'tool_call') {
    role = 'tool';
    text = [s.tool, s.target].filter(Boolean).join(' ') || s.text;
  } else return null;
  const clean = redact(text).text.trim();
  if (clean === '') return null;
  return {
    role,
    content: clean.length > MAX_MESSAGE_CHARS ? `${clean.slice(0, MAX_MESSAGE_CHARS - 1)}…` : clean,
    timestamp: s.timestamp,
    // The internal order: unique in the thread (an Antigravity step's parts share `step`) and stable.
    external_id: String(seqOf(s)),
    step: seqOf(s),
  };
}

/** A transcript file read whole by the agent's own parser: its steps in order (not redacted). */
export interface ParsedTranscript {
  meta: Partial<ThreadMeta>;
  steps: Step[];
  issues: number;
}

/** Parse a transcript file with the agent's parser (every step, in step order). */
export function readTranscriptSteps(agent: AgentId, path: string): ParsedTranscript {
  const adapter = getAdapter(agent);
  const file = preferredTranscript(agent, path);
  const steps = new Map<number, Step>();
  const meta: Partial<ThreadMeta> = {};
  let issues = 0;
  const sink: ParseSink = {
    thread: (m) => Object.assign(meta, m),
    step: (s) => void steps.set(seqOf(s), s),
    truncate: (from) => {
      for (const k of [...steps.keys()]) if (k >= from) steps.delete(k);
    },
    issue: () => void issues++,
  };
  // Only regular files, opened without blocking (a FIFO or /dev/zero would hang the worker).
  const { fd } = openRegularFile(file);
  if (file.endsWith('.json')) {
    try {
      adapter.parseDocument(file, stripBom(readFileSync(fd, 'utf8')), sink);
    } finally {
      closeSync(fd);
    }
  } else {
    const parser = adapter.createLineParser(file);
    try {
      const lines = readLines(fd, 0, 1, MAX_LINE);
      for (let r = lines.next(); !r.done; r = lines.next()) {
        if (r.value.kind === 'line') parser.line(r.value.text, r.value.lineNo, sink);
        else issues++;
      }
    } finally {
      closeSync(fd);
    }
  }
  return { meta, steps: [...steps.values()].sort((a, b) => seqOf(a) - seqOf(b)), issues };
}

/** Parse a transcript file with the agent's parser (prompts, responses and tool calls, in order). */
export function readSessionTranscript(agent: AgentId, path: string): SessionTranscript {
  const { meta, steps, issues } = readTranscriptSteps(agent, path);
  const messages = steps.map(toMessage).filter((m): m is SessionMessage => m !== null);
  return { meta, messages, issues };
}

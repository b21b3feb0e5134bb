/**
 * Codex CLI rollouts. Current files are JSONL, every line `{timestamp, type, payload}`; the first
 * Rust builds wrote a bare header line `{id, timestamp, …}` followed by bare response items and
 * `{record_type: "state"}` markers; the TypeScript CLI wrote one `.json` document
 * `{session: {id, timestamp, …}, items: [...]}`. All three feed the same builder.
 */

import { preview } from '../../core/format.js';
import { asString, isRecord, tryParseJson } from '../../core/text.js';
import type { LineParser, ParseSink } from '../../ports/source.js';
import { type CodexState, CodexThreadBuilder } from './builder.js';

/** Item types a bare (pre-envelope) rollout line may hold. */
const BARE_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

function shapeOf(v: unknown): string {
  return Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v;
}

/** Line parser for one Codex `rollout-*.jsonl` file. */
export class CodexLineParser implements LineParser {
  private readonly b: CodexThreadBuilder;

  constructor(path: string, state?: unknown) {
    this.b = new CodexThreadBuilder(path, state);
  }

  state(): CodexState {
    // A copy: ingest may keep the snapshot while this parser goes on with more lines.
    return structuredClone(this.b.s);
  }

  line(text: string, lineNo: number, sink: ParseSink): void {
    if (text.trim() === '') return;
    const parsed = tryParseJson(text);
    const rec = parsed.ok ? parsed.value : undefined;
    this.b.begin(sink, lineNo, isRecord(rec) ? rec.timestamp : undefined);
    try {
      if (!parsed.ok) this.b.issue(`invalid JSON (${preview(parsed.error, 120)}): ${preview(text)}`);
      else if (!isRecord(rec)) this.b.issue(`expected a JSON object, got ${shapeOf(rec)}`);
      else if ('payload' in rec) this.envelope(rec);
      else this.bare(rec);
    } catch (e) {
      // A parser must never throw; an unexpected shape deep inside a record becomes an issue.
      this.b.issue(`could not read line: ${(e as Error).message}`);
    }
    this.b.end();
  }

  private envelope(rec: Record<string, unknown>): void {
    const type = asString(rec.type);
    const p = rec.payload;
    if (!type) this.b.issue('line has no "type"');
    else if (!isRecord(p)) this.b.issue(`${type} payload is ${shapeOf(p)}, expected an object`);
    else if (type === 'session_meta') this.b.sessionMeta(p);
    else if (type === 'turn_context') this.b.turnContext(p);
    else if (type === 'response_item') this.b.item(p);
    else if (type === 'event_msg') this.b.event(p);
    else if (type === 'compacted') this.b.compacted(p);
    else this.b.unknownType(`line type "${type}"`);
  }

  /** Lines of the first Rust rollouts, written before the `{timestamp, type, payload}` envelope. */
  private bare(rec: Record<string, unknown>): void {
    const type = asString(rec.type);
    if (rec.record_type === 'state') return;
    if (type === undefined && typeof rec.id === 'string') this.b.sessionMeta(rec);
    else if (type && BARE_ITEM_TYPES.has(type)) this.b.item(rec);
    else if (type) this.b.unknownType(`line type "${type}"`);
    else this.b.issue('line has no "type"');
  }
}

/**
 * Line numbers of the `items` entries when the document is pretty-printed the way the TypeScript
 * CLI wrote it (`JSON.stringify(doc, null, 2)`: each item opens on a line indented by four
 * spaces). Undefined for any other layout; the caller then cites line 1.
 */
function itemLines(text: string, count: number): number[] | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('  "items": ['));
  if (start < 0) return undefined;
  const out: number[] = [];
  for (let i = start + 1; i < lines.length && !lines[i]!.startsWith('  ]'); i++) {
    if (/^ {4}\S/.test(lines[i]!) && !/^ {4}[\]}]/.test(lines[i]!)) out.push(i + 1);
  }
  return out.length === count ? out : undefined;
}

/** Parse a legacy `rollout-*.json` document `{session: {id, timestamp, …}, items: [...]}`. */
export function parseCodexDocument(path: string, text: string, sink: ParseSink): void {
  const b = new CodexThreadBuilder(path);
  const parsed = tryParseJson(text);
  const doc = parsed.ok ? parsed.value : undefined;
  const session = isRecord(doc) && isRecord(doc.session) ? doc.session : undefined;
  // The document has one timestamp for everything: when the session started.
  b.begin(sink, 1, session?.timestamp);
  if (!parsed.ok) b.issue(`invalid JSON (${preview(parsed.error, 120)})`);
  else if (!isRecord(doc) || !Array.isArray(doc.items))
    b.issue('expected a JSON object with an "items" array');
  else {
    if (session) b.sessionMeta(session);
    const lines = itemLines(text, doc.items.length);
    doc.items.forEach((item, i) => {
      b.at(lines?.[i] ?? 1);
      if (isRecord(item)) b.item(item);
      else b.issue(`expected an item object, got ${shapeOf(item)}`);
    });
  }
  b.end();
}

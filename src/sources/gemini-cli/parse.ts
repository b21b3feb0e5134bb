/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.json[l]`).
 *
 * `.jsonl` (newer releases) is a replayable log: a metadata line `{sessionId, projectHash,
 * startTime, lastUpdated, kind?, directories?}`, then message records (a record whose `id` was
 * seen before is an update of that message), `{"$set": {...}}` metadata/history updates and
 * `{"$rewindTo": "<messageId>"}` rewinds — see session.ts for how each rewrites the steps.
 * `.json` (older releases) is one document `{sessionId, projectHash, startTime, lastUpdated,
 * messages[]}` with the same message shape; the CLI itself reads any session file as JSONL first,
 * so a `.json` holding JSONL is parsed as lines.
 */
import { isRecord, tryParseJson } from '../../core/text.js';
import type { LineParser, ParseSink } from '../../ports/source.js';
import { messageStartLines } from './message-lines.js';
import { GeminiSession, type GeminiState } from './session.js';

/** Incremental parser for a `session-*.jsonl` log. */
export class GeminiLineParser implements LineParser {
  private readonly session: GeminiSession;

  constructor(
    private readonly path: string,
    state?: unknown,
  ) {
    this.session = new GeminiSession(path, state);
  }

  state(): GeminiState {
    return this.session.state();
  }

  line(text: string, lineNo: number, sink: ParseSink): void {
    if (text.trim() === '') return;
    const parsed = tryParseJson(text);
    if (!parsed.ok) {
      sink.issue({ path: this.path, line: lineNo, message: `invalid JSON: ${parsed.error.slice(0, 120)}` });
      return;
    }
    const rec = parsed.value;
    if (!isRecord(rec)) {
      sink.issue({ path: this.path, line: lineNo, message: 'expected a JSON object per line' });
      return;
    }
    if ('$rewindTo' in rec) {
      if (typeof rec.$rewindTo === 'string') this.session.rewind(rec.$rewindTo, lineNo, sink);
      else sink.issue({ path: this.path, line: lineNo, message: '$rewindTo without a message id' });
    } else if ('$set' in rec) {
      if (isRecord(rec.$set)) this.session.set(rec.$set, lineNo, sink);
      else sink.issue({ path: this.path, line: lineNo, message: '$set without an object' });
    } else if (typeof rec.id === 'string') {
      this.session.message(rec, rec.id, lineNo, sink);
    } else if (typeof rec.sessionId === 'string') {
      this.session.metadata(rec, sink);
    } else {
      const shape = Object.keys(rec).sort().slice(0, 6).join(',');
      this.session.issueOnce(
        `shape:${shape}`,
        `unrecognized Gemini CLI line with keys: ${shape}`,
        lineNo,
        sink,
      );
    }
  }
}

/** Parse a whole `session-*.json` document (re-read whole whenever it changes). */
export function parseGeminiDocument(path: string, text: string, sink: ParseSink): void {
  const parsed = tryParseJson(text);
  if (!parsed.ok) {
    const lines = text.split('\n');
    const first = lines.find((l) => l.trim() !== '');
    if (first !== undefined && tryParseJson(first).ok) {
      const parser = new GeminiLineParser(path);
      for (const [i, l] of lines.entries()) parser.line(l, i + 1, sink);
      return;
    }
    sink.issue({ path, line: 1, message: `invalid JSON document: ${parsed.error.slice(0, 120)}` });
    return;
  }
  const doc = parsed.value;
  if (!isRecord(doc)) {
    sink.issue({ path, line: 1, message: 'expected a JSON object with a "messages" array' });
    return;
  }
  const session = new GeminiSession(path);
  session.metadata(doc, sink);
  if (!Array.isArray(doc.messages)) {
    sink.issue({ path, line: 1, message: 'session document has no "messages" array' });
  } else {
    // A message's steps cite the line its object starts on (its `{`); if the scan disagrees with
    // the parse (a duplicated "messages" key), the line of its `"id"` value is the next best.
    const starts = messageStartLines(text);
    const lines = starts?.length === doc.messages.length ? starts : undefined;
    const lineOf = lineFinder(text);
    for (const [i, msg] of doc.messages.entries()) {
      if (!isRecord(msg)) {
        sink.issue({ path, line: lines?.[i] ?? 1, message: `messages[${i}] is not an object` });
        continue;
      }
      const id = typeof msg.id === 'string' ? msg.id : `@${i}`;
      const line = lines?.[i] ?? (typeof msg.id === 'string' ? lineOf(JSON.stringify(msg.id)) : 1);
      session.message(msg, id, line, sink);
    }
  }
  session.endDocument(sink);
}

/**
 * 1-based line of the next occurrence of `needle`, searching forward from the previous hit
 * (messages appear in file order, so a message's id locates its line in one pass).
 */
function lineFinder(text: string): (needle: string) => number {
  let pos = 0;
  let line = 1;
  return (needle) => {
    const i = text.indexOf(needle, pos);
    if (i < 0) return line;
    for (let k = pos; k < i; k++) if (text.charCodeAt(k) === 10) line++;
    pos = i;
    return line;
  };
}

/**
 * Where each message of a Gemini CLI `.json` document starts: the 1-based line of the first
 * character of every `messages[]` element (its `{`), which is where a person who opens
 * `file:line` expects the message to begin. Found by one scan of the JSON text that tracks
 * strings and nesting, so it holds for any layout (pretty-printed, one line, keys in any order).
 */

/**
 * Start lines of the elements of the top-level `"messages"` array, in order; undefined when the
 * text has no such array (the caller then falls back).
 */
export function messageStartLines(text: string): number[] | undefined {
  const out: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let stringStart = -1;
  /** The last string read at depth 1, and the key whose value is being read (after its `:`). */
  let key = '';
  let keyOfValue = '';
  /** Depth inside the messages array (-1 before it is found). */
  let arrayDepth = -1;
  let awaiting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92) escaped = true;
      else if (c === 34) {
        inString = false;
        if (depth === 1) key = text.slice(stringStart, i);
      }
      continue;
    }
    if (c === 32 || c === 10 || c === 13 || c === 9) continue;
    if (awaiting && depth === arrayDepth && c !== 93) {
      out.push(line);
      awaiting = false;
    }
    if (c === 34) {
      inString = true;
      stringStart = i + 1;
    } else if (c === 58) {
      if (depth === 1) keyOfValue = key;
    } else if (c === 123 || c === 91) {
      depth++;
      if (c === 91 && depth === 2 && arrayDepth < 0 && keyOfValue === 'messages') {
        arrayDepth = depth;
        awaiting = true;
      }
    } else if (c === 125 || c === 93) {
      if (depth === arrayDepth) return out;
      depth--;
    } else if (c === 44) {
      if (depth === arrayDepth) awaiting = true;
      if (depth === 1) keyOfValue = '';
    }
  }
  return arrayDepth < 0 ? undefined : out;
}

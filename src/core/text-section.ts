/**
 * A section of a text file (AGENTS.md, GEMINI.md) between two marker lines, so a tool can put,
 * replace and remove exactly its own part and nothing else. Appended after one blank line;
 * removing it gives back the file as it was (a file without a final newline gets one).
 */

export interface SectionMarkers {
  begin: string;
  end: string;
}

interface Span {
  start: number;
  end: number;
}

/** The first `begin … end` span (whole lines, the end line's newline included). */
function findSection(text: string, m: SectionMarkers): Span | null {
  const lineStart = (i: number) => text.lastIndexOf('\n', i - 1) + 1;
  let from = 0;
  for (;;) {
    const b = text.indexOf(m.begin, from);
    if (b === -1) return null;
    const start = lineStart(b);
    // the marker must be alone on its line
    if (text.slice(start, b).trim() !== '') {
      from = b + 1;
      continue;
    }
    const e = text.indexOf(m.end, b + m.begin.length);
    if (e === -1) return null;
    const nl = text.indexOf('\n', e);
    return { start, end: nl === -1 ? text.length : nl + 1 };
  }
}

export const hasSection = (text: string, m: SectionMarkers) => findSection(text, m) !== null;

/** The section's text as it would be written: markers around `body`, ending with a newline. */
export function renderSection(body: string, m: SectionMarkers): string {
  return `${m.begin}\n${body.replace(/\n+$/, '')}\n${m.end}\n`;
}

/** Replace the section in place, or append it after one blank line. */
export function putSection(text: string, section: string, m: SectionMarkers): string {
  const span = findSection(text, m);
  if (span) return text.slice(0, span.start) + section + text.slice(span.end);
  if (text === '') return section;
  return `${text}${text.endsWith('\n') ? '' : '\n'}\n${section}`;
}

/** Remove the section; at the end of the file, the blank line put before it goes too. */
export function removeSection(text: string, m: SectionMarkers): string {
  const span = findSection(text, m);
  if (!span) return text;
  const atEnd = text.slice(span.end).trim() === '';
  let out = text.slice(0, span.start) + text.slice(span.end);
  if (atEnd) {
    out = out.replace(/\n[ \t]*\n[ \t]*$/, '\n');
    if (out.trim() === '') out = '';
  } else if (
    span.start > 0 &&
    /\n\n$/.test(text.slice(0, span.start)) &&
    out.slice(span.start).startsWith('\n')
  )
    out = out.slice(0, span.start) + out.slice(span.start + 1);
  return out;
}

/** What every agent writer returns, and small helpers they share. */

export interface WrittenFile {
  /** Path relative to the corpus root (the fake HOME). */
  rel: string;
  data: string;
}

export interface WriterOutput {
  /** The transcript file (relative), where the needles are. */
  transcript: string;
  /** Every file of the session, transcript included. */
  files: WrittenFile[];
  /** [question index, 1-based line of the answering step]. */
  needles: [number, number][];
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A JSONL file under construction; `push` returns the 1-based line number. */
export class JsonLines {
  private readonly lines: string[] = [];

  push(value: unknown): number {
    this.lines.push(JSON.stringify(value));
    return this.lines.length;
  }

  get count(): number {
    return this.lines.length;
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/** Number the lines of a file body the way a viewer tool does. */
export function numbered(body: string, fmt: (n: number, line: string) => string): string {
  const lines = body.split('\n');
  let out = '';
  for (let i = 0; i < lines.length; i++) out += (i === 0 ? '' : '\n') + fmt(i + 1, lines[i]);
  return out;
}

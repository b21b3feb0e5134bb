/**
 * Terminal styling for human output, in one place. Colour only when stdout is a terminal that
 * takes it: `hasColors()` already honours NO_COLOR, NODE_DISABLE_COLORS, FORCE_COLOR (0 turns it
 * off, 1–3 on) and TERM=dumb. The decision is ours (not `styleText`'s own stream check, which
 * Node 20 only gained in 20.18) so every Node the package supports behaves the same.
 */
import * as util from 'node:util';

/** Whether human output on stdout may carry colour and bold. */
export function colorEnabled(stream: NodeJS.WriteStream = process.stdout): boolean {
  return !!stream.isTTY && stream.hasColors?.() === true;
}

type Format = 'bold' | 'dim';

function paint(format: Format, text: string): string {
  // styleText arrived in Node 20.12; on 20.11 the same codes come from Node's own table
  if (typeof util.styleText === 'function') return util.styleText(format, text, { validateStream: false });
  const [open, close] = util.inspect.colors[format] ?? [0, 0];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

const style = (format: Format) => (text: string) => (colorEnabled() ? paint(format, text) : text);

export const bold = style('bold');
export const dim = style('dim');

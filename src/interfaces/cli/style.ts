/**
 * Terminal styling for human output, in one place. Colour only when stdout is a terminal that
 * takes it: `hasColors()` already honours NO_COLOR, NODE_DISABLE_COLORS, FORCE_COLOR (0 turns it
 * off, 1–3 on) and TERM=dumb. The decision is ours (not `styleText`'s own stream check, which
 * Node 20 only gained in 20.18) so every Node the package supports behaves the same.
 */
import { styleText } from 'node:util';

/** Whether human output on stdout may carry colour and bold. */
export function colorEnabled(stream: NodeJS.WriteStream = process.stdout): boolean {
  return !!stream.isTTY && stream.hasColors?.() === true;
}

const style = (format: 'bold' | 'dim') => (text: string) =>
  colorEnabled() ? styleText(format, text, { validateStream: false }) : text;

export const bold = style('bold');
export const dim = style('dim');

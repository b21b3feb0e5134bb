/** What the lean tools share: argument helpers and the result shape. */
import { isAbsolute, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AGENT_IDS } from '../../../core/types.js';

/**
 * Text of at most `max` characters. The bound is checked (a clear error) but not listed: every
 * session pays for the listing, and the bound only matters to the server.
 */
export const str = (max: number) =>
  z.string().refine((s) => s.length <= max, { message: `At most ${max.toLocaleString('en-US')} characters` });

/** A whole number in [min, max], checked but (like {@link str}) not listed. */
export const int = (min: number, max: number) =>
  z.number().refine((n) => Number.isInteger(n) && n >= min && n <= max, {
    message: `A whole number from ${min} to ${max}`,
  });

export const agentArg = z.enum(AGENT_IDS).optional();
/** A project directory; `.` and relative paths mean the server's working directory. */
export const projectArg = str(4096).optional().describe('. = here');

/** The project as an absolute directory: relative paths are read from the server's cwd. */
export const projectPath = (p: string | undefined): string | undefined =>
  p === undefined || p.trim() === '' ? undefined : isAbsolute(p) ? p : resolve(process.cwd(), p);

/** A text answer with structured content (which must match the tool's output schema). */
export const reply = (text: string, structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  structuredContent: structured,
});

/** A refusal that changes nothing (e.g. a destructive action without confirm). */
export const refuse = (text: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text }],
});

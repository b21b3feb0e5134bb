/**
 * Tool annotations every MCP tool uses: reads are read-only and idempotent; writes change state
 * but destroy nothing; deletes are destructive (and their tools also require `confirm: true`).
 */
export const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
export const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;
/** A write that can be repeated safely (an upsert, an idempotent append). */
export const IDEMPOTENT_WRITE = { ...WRITE, idempotentHint: true } as const;
export const DESTRUCTIVE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** A plain-text tool result. */
export const textResult = (text: string) => ({ content: [{ type: 'text' as const, text }] });

/**
 * The lean tools carry only the two hints clients act on (auto-approving reads, confirming
 * destructive calls): every listed character is paid for by every session.
 */
export const LEAN_READ = { readOnlyHint: true, destructiveHint: false } as const;
export const LEAN_WRITE = { readOnlyHint: false, destructiveHint: false } as const;
export const LEAN_DESTRUCTIVE = { readOnlyHint: false, destructiveHint: true } as const;

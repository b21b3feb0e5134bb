/** The one error type every layer raises; interfaces map `code` once at their edge. */

export const ERROR_CODES = [
  'NOT_FOUND',
  'INVALID_INPUT',
  'CONFLICT',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'UNSUPPORTED',
  'STORAGE_UNAVAILABLE',
  'SOURCE_FORMAT',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class TapedeckError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'TapedeckError';
    this.code = code;
    this.details = details;
  }
}

export function isTapedeckError(e: unknown): e is TapedeckError {
  return e instanceof TapedeckError;
}

export const invalidInput = (message: string, details?: Record<string, unknown>) =>
  new TapedeckError('INVALID_INPUT', message, details);
export const notFound = (message: string, details?: Record<string, unknown>) =>
  new TapedeckError('NOT_FOUND', message, details);

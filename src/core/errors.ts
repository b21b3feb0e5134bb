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

export class HippoError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'HippoError';
    this.code = code;
    this.details = details;
  }
}

export function isHippoError(e: unknown): e is HippoError {
  return e instanceof HippoError;
}

export const invalidInput = (message: string, details?: Record<string, unknown>) =>
  new HippoError('INVALID_INPUT', message, details);
export const notFound = (message: string, details?: Record<string, unknown>) =>
  new HippoError('NOT_FOUND', message, details);

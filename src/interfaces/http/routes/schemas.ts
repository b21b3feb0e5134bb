/** Small zod pieces the routes share (query strings arrive as text). */
import { z } from 'zod';

/** A whole number from a query string, within bounds. */
export const qInt = (min: number, max: number, description?: string) => {
  const s = z.coerce.number().int().min(min).max(max);
  return (description ? s.describe(description) : s).optional();
};

/** `true`/`false`/`1`/`0` from a query string. */
export const qBool = (description?: string) => {
  const s = z.stringbool();
  return (description ? s.describe(description) : s).optional();
};

/** A value that may repeat (`?agent=a&agent=b`) or be comma-separated. */
export const qList = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(description);

/** A space name (lowercase words joined by dashes). */
export const spaceField = z
  .string()
  .min(1)
  .max(64)
  .describe("Space (default: the key's first space, or the configured default)");

export const text = (max: number, description?: string) => {
  const s = z.string().max(max);
  return description ? s.describe(description) : s;
};

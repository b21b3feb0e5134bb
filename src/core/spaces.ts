/** Space names: kebab-case, lowercase, at most 64 characters; `all` is reserved. */
import { invalidInput } from './errors.js';

export const DEFAULT_SPACE = 'default';
const SPACE_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Words that look like a space but mean something else on the command line. */
const RESERVED = new Set(['all']);

/** Validate a space name; returns it, or throws INVALID_INPUT naming the problem and `where` it came from. */
export function checkSpaceName(name: string, where = 'space'): string {
  if (typeof name !== 'string' || name === '') throw invalidInput(`The ${where} name is empty`);
  if (name.length > 64) throw invalidInput(`The ${where} "${name.slice(0, 20)}…" is over 64 characters`);
  if (!SPACE_RE.test(name))
    throw invalidInput(
      `Invalid ${where} "${name}": use lowercase letters, digits and single dashes (e.g. work, side-project)`,
    );
  if (RESERVED.has(name))
    throw invalidInput(`"${name}" is reserved and cannot name a space; to cross spaces use --all-spaces`);
  return name;
}

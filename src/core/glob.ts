/** Shell-style name patterns for `fs find --name`: `*`, `?`, `[abc]`, `[!a-z]`, `{a,b}`. */
import { invalidInput } from './errors.js';

const SPECIAL = /[.+^$()|\\]/;

/** Compile a glob for one name (no `/`); case-insensitive when asked. */
export function globToRegExp(glob: string, ignoreCase = false): RegExp {
  if (typeof glob !== 'string' || glob === '') throw invalidInput('The name pattern is empty');
  if (glob.length > 200) throw invalidInput('The name pattern is over 200 characters');
  let re = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) throw invalidInput(`The name pattern "${glob}" has an unclosed "["`);
      let set = glob.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      re += `[${set}]`;
      i = end;
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else re += SPECIAL.test(c) || c === '{' || c === '}' || c === ']' ? `\\${c}` : c;
  }
  if (braces > 0) throw invalidInput(`The name pattern "${glob}" has an unclosed "{"`);
  try {
    return new RegExp(`^${re}$`, ignoreCase ? 'i' : '');
  } catch (e) {
    throw invalidInput(`The name pattern "${glob}" is invalid: ${(e as Error).message}`);
  }
}

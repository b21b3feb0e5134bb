/** Reading a command's text input: a file, or `-` for standard input. */
import { readFileSync } from 'node:fs';
import { invalidInput } from '../../../core/errors.js';

export function readText(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const what = file === '-' ? 'standard input' : file;
    throw invalidInput(`Cannot read ${what}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
}

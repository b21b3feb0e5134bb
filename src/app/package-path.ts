/**
 * Files that ship with the package (bin/, examples/), found from wherever this code runs: src/
 * under tsx, dist/ after tsc, or a chunk of the bundled CLI under dist/bundle/ — each at another
 * depth, so a fixed `../../..` would be right in one layout only.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The package folder: the nearest one above this module holding package.json. */
function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  root = dir;
  return dir;
}

/** A path inside the installed package, e.g. `packagePath('bin', 'tapedeck.js')`. */
export function packagePath(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

// `postinstall`: better-sqlite3 compiles from source where no prebuilt binary can be fetched, and node-gyp
// leaves its object files behind (≈15 MB, build/Release/obj and obj.target) beside the one addon it loads.
// Removing them keeps a production install small; `npm rebuild better-sqlite3` still works (it recompiles).
// Never fails the install: a missing or differently laid out better-sqlite3 is left alone.
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

try {
  const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  const release = join(dirname(pkg), 'build', 'Release');
  if (existsSync(join(release, 'better_sqlite3.node'))) {
    for (const dir of ['obj', 'obj.target']) rmSync(join(release, dir), { recursive: true, force: true });
  }
} catch {
  // better-sqlite3 not resolvable from here: nothing to tidy.
}

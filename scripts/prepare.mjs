// `prepare` hook: build dist/ when the dev dependencies are installed (a clone's `npm install`/`npm ci`,
// `npm pack`), and do nothing when they are not (`npm ci --omit=dev`), instead of failing on a missing tsc.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
if (!existsSync(join(root, 'node_modules', 'typescript', 'package.json'))) {
  const built = existsSync(join(root, 'dist', 'interfaces', 'cli', 'main.js'));
  process.stderr.write(
    `tapedeck: dev dependencies not installed, build skipped${built ? '' : ' (run `npm install` then `npm run build` to build dist/)'}\n`,
  );
  process.exit(0);
}
const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(r.status ?? 1);

#!/usr/bin/env node
// Entry point: the compiled CLI (npm install runs the build). Keep this file tiny.
const [major] = process.versions.node.split('.').map(Number);
if (major < 20) {
  process.stderr.write(`hippo needs Node.js 20 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
import('../dist/interfaces/cli/main.js')
  .then((m) => m.main())
  .catch((e) => {
    if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist')) {
      process.stderr.write('hippo: not built yet; run `npm install` (or `npm run build`) in the hippo folder\n');
    } else process.stderr.write(`hippo: ${e?.stack ?? e}\n`);
    process.exit(1);
  });

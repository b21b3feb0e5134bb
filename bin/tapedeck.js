#!/usr/bin/env node
// Entry point: the bundled CLI (npm install and npm pack run the build). Keep this file tiny.
// CommonJS (bin/package.json says so): a bare `node` starts with the CommonJS loader ready, so
// `--version` answers without starting the ES module loader at all.
'use strict';
const [major] = process.versions.node.split('.').map(Number);
if (major < 20) {
  process.stderr.write(`tapedeck needs Node.js 20 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // package.json is the version's one source (app/version.ts is kept equal to it by a test).
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  // Node 22.1+ keeps the compiled bundle on disk between runs (a no-op where it is missing, and
  // NODE_DISABLE_COMPILE_CACHE=1 turns it off).
  require('node:module').enableCompileCache?.();
  // Hooks start on their own path: a host runs one per event and waits for it, so they skip the
  // CLI (commander and every command module) and load only the hook runtime.
  const hook = args[0] === 'hook';
  const entry = hook
    ? import('../dist/bundle/interfaces/hooks/main.js').then((m) => m.runHook(args.slice(1)))
    : import('../dist/bundle/interfaces/cli/main.js').then((m) => m.main());
  entry.catch((e) => {
    if (e && e.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes('dist')) {
      process.stderr.write(
        'tapedeck: not built yet; run `npm install` (or `npm run build`) in the tapedeck folder\n',
      );
    } else process.stderr.write(`tapedeck: ${e?.stack ?? e}\n`);
    // A host reads a hook's stdout as its answer: give it valid JSON whatever happened.
    if (hook) process.stdout.write(process.argv.includes('PreToolUse') ? '{"decision":"ask"}\n' : '{}\n');
    process.exit(hook ? 0 : 1);
  });
}

#!/usr/bin/env node
// Entry point: the bundled CLI (npm install and npm pack run the build). Keep this file tiny.
const [major] = process.versions.node.split('.').map(Number);
if (major < 20) {
  process.stderr.write(`tapedeck needs Node.js 20 or newer; this is ${process.versions.node}\n`);
  process.exit(1);
}
const args = process.argv.slice(2);
// Hooks start on their own path: a host runs one per event and waits for it, so they skip the
// CLI (commander and every command module) and load only the hook runtime. `--version` loads
// one tiny module.
const hook = args[0] === 'hook';
const version = args.length === 1 && (args[0] === '--version' || args[0] === '-v');
const entry = hook
  ? import('../dist/bundle/interfaces/hooks/main.js').then((m) => m.runHook(args.slice(1)))
  : version
    ? import('../dist/app/version.js').then((m) => process.stdout.write(`${m.VERSION}\n`))
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

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
  // Node 22.1+ keeps the compiled packages (better-sqlite3's JavaScript) on disk between runs (a
  // no-op where it is missing, and NODE_DISABLE_COMPILE_CACHE=1 turns it off); the bundle has a
  // code cache of its own (load-bundle.js).
  require('node:module').enableCompileCache?.();
  // Hooks start on their own path: a host runs one per event and waits for it, so they skip the
  // CLI (commander and every command module) and load only the hook runtime.
  const hook = args[0] === 'hook';
  // The command word, found once: it names the code cache, and the CLI declares only that command.
  const word = positional(args)[0];
  const entry = new Promise((resolve) => {
    const { loadBundle } = require('./load-bundle.js');
    // Each command keeps its own code cache (named by the command, or by the hook's event).
    resolve(
      hook
        ? loadBundle('hooks', () => name(positional(args.slice(1))[1])).runHook(args.slice(1))
        : loadBundle('cli', (commands) => (commands?.includes(word) ? word : 'other')).main(
            process.argv,
            word,
          ),
    );
  });
  entry.catch((e) => {
    if (e && e.code === 'ENOENT' && String(e.path).includes('dist')) {
      process.stderr.write(
        'tapedeck: not built yet; run `npm install` (or `npm run build`) in the tapedeck folder\n',
      );
    } else process.stderr.write(`tapedeck: ${e?.stack ?? e}\n`);
    // A host reads a hook's stdout as its answer: give it valid JSON whatever happened.
    if (hook) process.stdout.write(process.argv.includes('PreToolUse') ? '{"decision":"ask"}\n' : '{}\n');
    process.exit(hook ? 0 : 1);
  });
}

/** The words that are not options (or the value of a root option that takes one). */
function positional(words) {
  const out = [];
  for (let i = 0; i < words.length; i++)
    if (/^--(home|db|api-url|api-key)$/.test(words[i])) i++;
    else if (!words[i].startsWith('-')) out.push(words[i]);
  return out;
}

/** A hook event as a file name. */
function name(word) {
  return /^[A-Za-z]{1,32}$/.test(word ?? '') ? word : 'other';
}

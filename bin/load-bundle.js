// Runs a bundle of dist/bundle/ (scripts/bundle.mjs) with a V8 code cache: compiled once, the
// bytecode of every function the command ran is kept in the user's cache folder and read back on
// the next run, instead of parsing and compiling ~1.5 MB of JavaScript at every start (Node 20
// has no compile cache of its own; Node 22's does not reach code compiled through node:vm).
// One cache file per command (a search and a hook run different code), keyed by the bundle's
// build id, Node's version and the CPU; V8 rejects a cache made under other V8 flags, and a
// rejected or missing cache is written again when the command ends.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const BUNDLE_DIR = path.join(__dirname, '..', 'dist', 'bundle');

/**
 * Where the caches live: the platform's per-user cache folder (never a shared temp folder: a
 * code cache is code, and one planted by another user would run as this one). Undefined when
 * turned off (TAPEDECK_CODE_CACHE=0, or Node's own NODE_DISABLE_COMPILE_CACHE=1) or unknown.
 */
function cacheDir(env) {
  if (env.TAPEDECK_CODE_CACHE === '0' || env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  let base;
  if (process.platform === 'win32') base = env.LOCALAPPDATA;
  else if (process.platform === 'darwin') base = env.HOME && path.join(env.HOME, 'Library', 'Caches');
  else
    base = path.isAbsolute(env.XDG_CACHE_HOME ?? '')
      ? env.XDG_CACHE_HOME
      : env.HOME && path.join(env.HOME, '.cache');
  return base ? path.join(base, 'tapedeck', 'code-cache') : undefined;
}

/** Write the cache of `script` atomically (a concurrent run reads the old file or the new one). */
function save(script, dir, file, name, suffix) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, file);
    // This bundle's caches from other builds or Node versions are never read again.
    for (const f of fs.readdirSync(dir))
      if (f.startsWith(`${name}-`) && f.endsWith('.v8') && !f.endsWith(suffix))
        fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    // A cache is an optimisation: a read-only or full disk only makes the next start slower.
  }
}

/**
 * The exports of bundle `name` (`cli` or `hook`), compiled with the code cache of `command`
 * (a short label such as `search`). Throws ENOENT when the package has not been built.
 */
function loadBundle(name, command) {
  const file = path.join(BUNDLE_DIR, `${name}.cjs`);
  // The bundle is ASCII (scripts/bundle.mjs makes sure): read as latin1 it is the same text, made
  // in 1 ms, where the UTF-8 decoder takes 15 ms or more for a file this size.
  const source = fs.readFileSync(file, 'latin1');
  const build = /^\/\/ tapedeck-bundle (\w+)/.exec(source)?.[1];
  const dir = build && cacheDir(process.env);
  const suffix = `-${build}-${process.version}-${process.arch}.v8`;
  const cacheFile = dir && path.join(dir, `${name}-${command}${suffix}`);
  let cachedData;
  if (cacheFile)
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {}
  // The wrapper Node's own CommonJS loader uses, so the bundle sees the usual module variables.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {'use strict';${source}\n})`,
    { filename: file, cachedData },
  );
  // After the command ran: the cache then holds every function it compiled, not just the outline.
  if (cacheFile && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => save(script, dir, cacheFile, name, suffix));
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, BUNDLE_DIR);
  return mod.exports;
}

module.exports = { loadBundle, cacheDir };

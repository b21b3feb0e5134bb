// Runs the bundle of dist/bundle/ (scripts/bundle.mjs: CommonJS chunks, each loaded when first
// required) with a V8 code cache: the bytecode of every function a command ran is kept in the
// user's cache folder and read back on its next run, instead of compiling the chunks at every
// start (Node 20 has no compile cache of its own; Node 22's does not reach code run by node:vm).
// One cache file per command (a search and a hook run different code) holding each chunk it
// loaded, keyed by the build, Node's version and the CPU; V8 rejects a chunk's cache made under
// other V8 flags, and the file is written again when a chunk had none or it was rejected.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const BUNDLE_DIR = path.join(__dirname, '..', 'dist', 'bundle');
const MAGIC = 'tapedeck-code-cache-1\n';

/**
 * Where the caches live: TAPEDECK_CODE_CACHE when it is an absolute folder, else a folder of this
 * user's in the temp folder (Node keeps its own compile cache there too; the home is left alone:
 * a dry run must write nothing there). Undefined when turned off (TAPEDECK_CODE_CACHE=0, or Node's
 * own NODE_DISABLE_COMPILE_CACHE=1), or when the folder is not this user's alone: a code cache is
 * code, and one planted by another user would run as this one.
 */
function cacheDir(env) {
  const set = env.TAPEDECK_CODE_CACHE;
  if (set === '0' || env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  const uid = process.getuid?.();
  const dir =
    set && path.isAbsolute(set)
      ? set
      : path.join(require('node:os').tmpdir(), `tapedeck-code-cache-${uid ?? 'user'}`);
  let st;
  try {
    st = fs.lstatSync(dir);
  } catch {
    return dir; // made, owner-only, when the first cache is written
  }
  return ownersOnly(st) ? dir : undefined;
}

/** A real folder (not a link) that only this user can write to (Windows: a per-user temp folder). */
function ownersOnly(st) {
  const uid = process.getuid?.();
  return st.isDirectory() && (uid === undefined || (st.uid === uid && (st.mode & 0o077) === 0));
}

/** A short hash of `text` (node:crypto would cost more to load than the whole lookup). */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The chunks' caches in one file: a header line, then per chunk its name, length and bytes. */
function readCaches(file) {
  const caches = new Map();
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch {
    return caches;
  }
  if (buf.toString('latin1', 0, MAGIC.length) !== MAGIC) return caches;
  for (let at = MAGIC.length; at + 6 <= buf.length; ) {
    const nameLength = buf.readUInt16LE(at);
    const name = buf.toString('latin1', at + 2, at + 2 + nameLength);
    const size = buf.readUInt32LE(at + 2 + nameLength);
    const start = at + 6 + nameLength;
    if (start + size > buf.length) break; // cut short: keep what is whole
    caches.set(name, buf.subarray(start, start + size));
    at = start + size;
  }
  return caches;
}

/** Write the caches atomically (a concurrent run reads the old file or the new one). */
function writeCaches(dir, file, caches, stalePrefix, keepSuffix) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownersOnly(fs.lstatSync(dir))) return; // made by someone else in the meantime
    const parts = [Buffer.from(MAGIC, 'latin1')];
    for (const [name, data] of caches) {
      const head = Buffer.alloc(6 + name.length);
      head.writeUInt16LE(name.length, 0);
      head.write(name, 2, 'latin1');
      head.writeUInt32LE(data.length, 2 + name.length);
      parts.push(head, data);
    }
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, Buffer.concat(parts), { mode: 0o600 });
    fs.renameSync(tmp, file);
    // This bundle's caches from other builds or Node versions are never read again.
    for (const f of fs.readdirSync(dir))
      if (f.startsWith(stalePrefix) && f.endsWith('.v8') && !f.endsWith(keepSuffix))
        fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    // A cache is an optimisation: a read-only or full disk only makes the next start slower.
  }
}

/**
 * The exports of entry `entry` (`cli` or `hooks`) of the bundle, compiled with the code cache
 * of `label(commands)`, given the entry's command names (the CLI's; the hooks' are events).
 * Throws ENOENT when the package has not been built.
 */
function loadBundle(entry, label) {
  const main = path.join(BUNDLE_DIR, 'interfaces', entry, 'main.js');
  // ASCII (scripts/bundle.mjs makes sure): read as latin1 it is the same text, decoded several
  // times faster than as UTF-8.
  const head = fs.readFileSync(main, 'latin1');
  const meta = JSON.parse(/^\/\/ tapedeck-bundle (.*)/.exec(head)?.[1] ?? '{}');
  const dir = meta.build && cacheDir(process.env);
  // Named by the installation too: two installs of different builds share the folder without
  // removing each other's files.
  const prefix = `${fnv1a(BUNDLE_DIR)}-${entry}-`;
  const suffix = `-${meta.build}-${process.version}-${process.arch}.v8`;
  const cacheFile = dir && path.join(dir, `${prefix}${label(meta.commands)}${suffix}`);
  const caches = cacheFile ? readCaches(cacheFile) : new Map();
  let stale = false;
  const scripts = new Map();
  const modules = new Map();
  // Packages and built-ins are Node's to load, resolved from the bundle (one resolver for every
  // chunk: they all find the same node_modules), made when first needed.
  let nodeRequire;
  const fromNode = (id) => {
    if (!nodeRequire) nodeRequire = createRequire(main);
    return nodeRequire(id);
  };

  function load(file, source) {
    const known = modules.get(file);
    if (known) return known.exports;
    const name = path.relative(BUNDLE_DIR, file);
    const cachedData = caches.get(name);
    // The wrapper Node's own CommonJS loader uses, so a chunk sees the usual module variables.
    const script = new vm.Script(
      `(function (exports, require, module, __filename, __dirname) {'use strict';${source ?? fs.readFileSync(file, 'latin1')}\n})`,
      { filename: file, cachedData },
    );
    if (!cachedData || script.cachedDataRejected) stale = true;
    scripts.set(name, script);
    const mod = { exports: {} };
    modules.set(file, mod);
    const here = path.dirname(file);
    const require = (id) => (id.startsWith('.') ? load(path.join(here, id)) : fromNode(id));
    script.runInThisContext()(mod.exports, require, mod, file, here);
    return mod.exports;
  }

  // At exit, when the command ran: the cache then holds every function it compiled, not just the
  // outline. Chunks this run did not load keep the cache they had.
  if (cacheFile)
    process.once('exit', () => {
      if (!stale) return;
      for (const [name, script] of scripts) caches.set(name, script.createCachedData());
      writeCaches(dir, cacheFile, caches, prefix, suffix);
    });
  return load(main, head);
}

module.exports = { loadBundle, cacheDir };

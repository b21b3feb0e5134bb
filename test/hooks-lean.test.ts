/**
 * The hook entry stays lean: what `tapedeck hook` loads before it knows the event (its static import
 * graph) holds none of the heavy modules — the MCP SDK, commander, the HTTP stack, SQLite, the
 * engine. Those arrive only through dynamic imports, on the paths that need them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';

const SRC = join(import.meta.dirname, '..', 'src');
const STATIC = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm;

function staticGraph(entry: string, seen = new Set<string>(), packages = new Set<string>()) {
  if (seen.has(entry)) return { seen, packages };
  seen.add(entry);
  const text = readFileSync(entry, 'utf8');
  for (const m of text.matchAll(STATIC)) {
    const line = text.slice(text.lastIndexOf('\n', m.index) + 1, text.indexOf('\n', m.index));
    if (/^\s*import\s+type\s/.test(line) || /^\s*export\s+type\s/.test(line)) continue;
    const spec = m[1];
    if (spec.startsWith('.'))
      staticGraph(resolve(dirname(entry), spec.replace(/\.js$/, '.ts')), seen, packages);
    else packages.add(spec);
  }
  return { seen, packages };
}

it('the hook entry loads no heavy module up front', () => {
  const { seen, packages } = staticGraph(join(SRC, 'interfaces', 'hooks', 'main.ts'));
  const files = [...seen].map((f) => relative(SRC, f)).sort();
  for (const p of packages) assert.match(p, /^node:/, `${p} is loaded by every hook`);
  for (const f of files) assert.doesNotMatch(f, /^(app|storage|sources|ingest|search|services)\//, f);
  // The log redacts its lines (core/redact), so nine small modules load before dispatch.
  assert.ok(files.length <= 9, `${files.length} modules before dispatch: ${files.join(', ')}`);
});

it('the session-start path adds only small modules until the cache misses', () => {
  const { seen, packages } = staticGraph(join(SRC, 'interfaces', 'hooks', 'context.ts'));
  for (const p of packages) assert.match(p, /^node:/, p);
  for (const f of [...seen].map((x) => relative(SRC, x)))
    assert.doesNotMatch(f, /^(app|storage|sources)\//, f);
});

/** The dependency rule of DESIGN.md, enforced: imports only point the allowed way. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const SRC = join(import.meta.dirname, '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** The layer of a file under src/: `core`, `ports`, `storage/sqlite`, `sources/codex`, `interfaces/cli`, … */
function layerOf(rel: string): string {
  const parts = rel.split('/');
  if (['storage', 'sources', 'interfaces'].includes(parts[0]) && parts.length > 2)
    return `${parts[0]}/${parts[1]}`;
  return parts[0].replace(/\.ts$/, '');
}

const ALLOWED: Record<string, (target: string) => boolean> = {
  core: (t) => t === 'core',
  ports: (t) => t === 'core' || t === 'ports',
  ingest: (t) => ['core', 'ports', 'ingest'].includes(t),
  search: (t) => ['core', 'ports', 'search'].includes(t),
  services: (t) => ['core', 'ports', 'ingest', 'search', 'services'].includes(t),
  // The operation catalogue: declarations over the services, projected by every interface.
  catalog: (t) => ['core', 'services', 'catalog'].includes(t),
  app: (t) => t !== 'interfaces' && !t.startsWith('interfaces/'),
};

function allowed(from: string, to: string): boolean {
  if (from === to) return true;
  if (ALLOWED[from]) return ALLOWED[from](to);
  // Backends never import each other; they may use the shared helpers at the storage/ root.
  if (from.startsWith('storage/')) return ['core', 'ports', 'storage'].includes(to);
  // Adapters never import each other; they may use the shared helpers at the sources/ root.
  if (from.startsWith('sources/')) return ['core', 'ports', 'sources'].includes(to);
  if (from === 'sources') return to === 'core' || to === 'ports' || to.startsWith('sources/');
  if (from === 'storage') return ['core', 'ports'].includes(to);
  // The CLI's `tapedeck mcp` and `tapedeck serve` start the MCP and HTTP servers, and the HTTP server
  // mounts the MCP server at /mcp; no other interface reaches into another.
  if (from === 'interfaces/cli' && (to === 'interfaces/mcp' || to === 'interfaces/http')) return true;
  // `tapedeck hook|queue|status` run the hook runtime and `tapedeck install` the installers.
  if (from === 'interfaces/cli' && (to === 'interfaces/hooks' || to === 'interfaces/plugins')) return true;
  if (from === 'interfaces/http' && to === 'interfaces/mcp') return true;
  // Interfaces may use the shared helpers at the interfaces/ root (the one JSON naming of every edge).
  if (from.startsWith('interfaces/'))
    return ['app', 'catalog', 'services', 'core', 'interfaces'].includes(to) || to === from;
  if (from === 'interfaces') return to === 'core';
  return false;
}

test('imports follow the dependency rule', () => {
  const violations: string[] = [];
  for (const file of files(SRC)) {
    const rel = relative(SRC, file);
    if (rel.endsWith('.test.ts') || rel.includes('test-helpers')) continue;
    const from = layerOf(rel);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const spec = m[1] ?? m[2];
      if (from === 'core' && !spec.startsWith('.')) {
        violations.push(`${rel}: core imports ${spec}`);
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = relative(SRC, join(file, '..', spec));
      const to = layerOf(target);
      if (!allowed(from, to)) violations.push(`${rel} (${from}) imports ${spec} (${to})`);
    }
  }
  assert.deepEqual(violations, []);
});

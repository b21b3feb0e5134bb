/** Test support: an export folder read back as text, to compare two exports byte for byte. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file of a folder, path → text, the manifest's created_at blanked. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  const m = out.get('manifest.json');
  if (m) out.set('manifest.json', m.replace(/"created_at": "[^"]+"/, '"created_at": "…"'));
  return out;
}

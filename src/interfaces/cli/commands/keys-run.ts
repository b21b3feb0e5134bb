/** The work behind `tapedeck keys …` (loaded only when one of those commands runs). */
import type { KeyView } from '../../../services/keys.js';
import { type GlobalFlags, openEngine } from '../context.js';
import { print, printJson, warn } from '../output.js';

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '—');

function line(k: KeyView): string {
  const spaces = k.spaces.length ? k.spaces.join(',') : 'every space';
  const status = k.status === 'active' ? '' : ` ${k.status.toUpperCase()}`;
  return `${k.id}  ${k.prefix}…  ${k.scope.padEnd(5)}  ${spaces}  ${k.name}${status}  (created ${when(k.created_at)}, expires ${when(k.expires_at)}, last used ${when(k.last_used_at)})`;
}

export async function runKeysCreate(
  f: GlobalFlags & { name?: string; space?: string[]; scope?: string; expires?: string },
): Promise<void> {
  const engine = openEngine(f);
  try {
    const { key, record } = await engine.keys.create({
      name: f.name ?? '',
      spaces: f.space,
      scope: f.scope,
      expires: f.expires,
    });
    if (f.json) return printJson({ key, ...record });
    print(key);
    warn(`Created ${line(record)}`);
    warn(
      'This is the only time the key is shown: store it now. Send it as "Authorization: Bearer <key>" or "X-Tapedeck-Api-Key: <key>".',
    );
  } finally {
    engine.close();
  }
}

export async function runKeysList(f: GlobalFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const keys = await engine.keys.list();
    if (f.json) return printJson({ keys });
    if (keys.length === 0)
      return print(
        'No API keys. Create one with: tapedeck keys create --name <name> [--space S] [--scope read|write|admin]',
      );
    for (const k of keys) print(line(k));
  } finally {
    engine.close();
  }
}

export async function runKeysRevoke(id: string, f: GlobalFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const k = await engine.keys.revoke(id);
    if (f.json) return printJson(k);
    print(`Revoked ${line(k)}`);
  } finally {
    engine.close();
  }
}

/** `tapedeck migrate --to URL`: copy the local store into a server store; resumable, idempotent. */
import { loadBackends } from '../../../app/backends.js';
import { isDatabaseUrl, loadConfig } from '../../../app/config.js';
import { migrateTo } from '../../../app/migrate.js';
import type { GlobalFlags } from '../context.js';
import { print, printJson, warn } from '../output.js';

export interface MigrateFlags extends GlobalFlags {
  to?: string;
}

export async function runMigrate(flags: MigrateFlags): Promise<void> {
  const config = loadConfig({ home: flags.home, db: flags.db });
  const to = flags.to?.trim() ?? '';
  if (isDatabaseUrl(to)) await loadBackends({ databaseUrl: to });
  const r = await migrateTo(config, flags.to ?? '', (p) => {
    if (!flags.json && process.stderr.isTTY)
      warn(`threads ${p.threads} (copied ${p.copied}, already there ${p.skipped}), steps ${p.steps}`);
  });
  if (flags.json) return printJson(r);
  const n = (c: object) => Object.values(c).reduce((a: number, b: number) => a + b, 0);
  print(`Copied ${config.databaseUrl ? 'the store' : config.dbPath} into ${r.to}:`);
  print(`  transcripts: ${r.copied} threads copied (${r.steps} steps), ${r.skipped} already there`);
  print(
    `  knowledge:   ${n(r.knowledge.created)} records created, ${n(r.knowledge.unchanged)} already there, ${r.knowledge.conflicts.length} conflicts`,
  );
  for (const c of r.knowledge.conflicts.slice(0, 20)) print(`    conflict: ${JSON.stringify(c)}`);
  print('API keys are not copied: create the server’s own with `tapedeck keys create`.');
}

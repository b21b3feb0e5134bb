/** `tapedeck migrate`: the configured local store copied into another one (a PostgreSQL server or a file). */
import { resolve } from 'node:path';
import { invalidInput } from '../core/errors.js';
import { type MigrationProgress, type MigrationResult, migrateStore } from '../services/migration.js';
import { isDatabaseUrl, type TapedeckConfig } from './config.js';
import { createEngine } from './engine.js';

export async function migrateTo(
  config: TapedeckConfig,
  to: string,
  onProgress?: (p: MigrationProgress) => void,
): Promise<MigrationResult> {
  const target = to.trim();
  if (!target) throw invalidInput('Give the store to copy into: --to postgres://user@host/db (or a file)');
  const targetConfig: TapedeckConfig = isDatabaseUrl(target)
    ? { ...config, databaseUrl: target }
    : { ...config, databaseUrl: undefined, dbPath: resolve(target) };
  if ((targetConfig.databaseUrl ?? targetConfig.dbPath) === (config.databaseUrl ?? config.dbPath))
    throw invalidInput('The target is the store being copied; give another one');
  const source = createEngine(config, { readonly: !config.databaseUrl });
  try {
    const dest = createEngine(targetConfig);
    try {
      return await migrateStore(
        { transcripts: source.store, portability: source.portability },
        { transcripts: dest.store, portability: dest.portability },
        onProgress,
      );
    } finally {
      dest.close();
    }
  } finally {
    source.close();
  }
}

/**
 * `tapedeck redact [--apply]`: mask the store again with today's redaction rules, for values an
 * older version stored before its rules knew a kind. Without `--apply` it only counts (a dry run).
 */
import { type GlobalFlags, openEngine } from '../context.js';
import { print, printJson } from '../output.js';

export interface RedactFlags extends GlobalFlags {
  apply?: boolean;
}

export async function runRedact(flags: RedactFlags): Promise<void> {
  const engine = openEngine(flags);
  try {
    const r = engine.stores.remask(flags.apply === true);
    if (flags.json) return printJson(r);
    const where = Object.entries(r.tables)
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t} ${n}`)
      .join(', ');
    if (r.values === 0) return print('Nothing to mask: every stored value is redacted with today’s rules.');
    print(
      r.applied
        ? `Masked ${r.values} values in ${r.rows} rows (${where}).`
        : `${r.values} values in ${r.rows} rows would be masked (${where}); run tapedeck redact --apply to change them.`,
    );
  } finally {
    engine.close();
  }
}

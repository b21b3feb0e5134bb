import { formatRetention, retentionReport } from '../../../app/retention.js';
import { type GlobalFlags, missingStorePath, openEngine } from '../context.js';
import { NOTHING_INDEXED, print, printJson, tildify } from '../output.js';

/** Health report: per-agent transcript roots and counts, parse issues with file and line, database checks. */
export async function runDoctor(flags: GlobalFlags & { issues?: string }): Promise<void> {
  const engine = openEngine(flags);
  try {
    const located = engine.locate();
    const { problems, issues, stats } = engine.transcripts.health(Number(flags.issues ?? 50) || 50);
    const missing = missingStorePath(engine);
    const agents = engine.adapters.map((a) => ({
      agent: a.id,
      name: a.displayName,
      filesOnDisk: located[a.id]?.length ?? 0,
      filesIndexed: stats.perAgent[a.id]?.files ?? 0,
      threads: stats.perAgent[a.id]?.threads ?? 0,
      steps: stats.perAgent[a.id]?.steps ?? 0,
      lastUpdated: stats.perAgent[a.id]?.lastUpdated ?? null,
    }));
    const archive = engine.archive ? { enabled: true, ...engine.archive.stats() } : { enabled: false };
    const retention = retentionReport(engine);
    const report = {
      ok: problems.length === 0,
      node: process.versions.node,
      database: missing
        ? { path: missing, exists: false, bytes: 0, problems }
        : { path: stats.path, exists: true, bytes: stats.dbBytes, problems },
      archive,
      retention,
      agents,
      issues: { total: stats.issues, recent: issues },
    };
    if (flags.json) return printJson(report);
    print(`Tapedeck doctor — Node ${report.node}`);
    if (missing) print(`database ${tildify(missing)}: not created yet. ${NOTHING_INDEXED}`);
    else
      print(
        `database ${tildify(stats.path)} (${(stats.dbBytes / 1048576).toFixed(1)} MB): ${problems.length ? `PROBLEMS: ${problems.join('; ')}` : 'ok'}`,
      );
    print(formatArchive(archive));
    print(formatRetention(retention));
    if (retention.problem) print(`  ${retention.problem}`);
    print('');
    for (const a of agents) {
      const behind =
        a.filesOnDisk > a.filesIndexed
          ? `  (${a.filesOnDisk - a.filesIndexed} not indexed yet: run \`tapedeck index\`)`
          : '';
      print(
        `${a.name.padEnd(18)} ${String(a.filesOnDisk).padStart(6)} files on disk ${String(a.threads).padStart(6)} threads ${String(a.steps).padStart(8)} steps${behind}`,
      );
    }
    print('');
    if (issues.length === 0) print('No parse issues.');
    else {
      print(
        `${stats.issues} parse issue(s)${stats.issues > issues.length ? `, latest ${issues.length}` : ''}:`,
      );
      for (const i of issues) print(`  ${tildify(i.path)}${i.line ? `:${i.line}` : ''}  ${i.message}`);
    }
    if (problems.length) process.exitCode = 1;
  } finally {
    engine.close();
  }
}

/** "archive ~/.tapedeck/archive: 12 transcripts, 3.1 MB (of 20.4 MB)" or that it is off. */
export function formatArchive(a: {
  enabled: boolean;
  dir?: string;
  files?: number;
  bytes?: number;
  originalBytes?: number;
}): string {
  if (!a.enabled)
    return 'archive off ("archive": false in config.json or TAPEDECK_ARCHIVE=0): deleted transcripts cannot be restored';
  const mb = (n = 0) => (n / 1048576).toFixed(1);
  return `archive ${tildify(a.dir)}: ${a.files} transcripts, ${mb(a.bytes)} MB (of ${mb(a.originalBytes)} MB original)`;
}

/** The work of `tapedeck install|uninstall`, `tapedeck queue` and `tapedeck status`. */
import { join } from 'node:path';
import { formatRetention, type RetentionReport, retentionReport } from '../../../app/retention.js';
import { createLogger } from '../../hooks/log.js';
import { countFiles, scanQueue } from '../../hooks/queue.js';
import { readHookSettings } from '../../hooks/settings.js';
import { hookStatus } from '../../hooks/status.js';
import { flushQueue } from '../../hooks/worker.js';
import { formatInstall, runInstall } from '../../plugins/install.js';
import { installedIntegrations } from '../../plugins/installed.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { print, printJson, tildify } from '../output.js';

export interface InstallFlags extends GlobalFlags {
  workspace?: string | boolean;
  global?: boolean;
  dryRun?: boolean;
  retentionDays?: string;
}

export async function runInstallCommand(
  agent: string,
  mode: 'install' | 'uninstall',
  f: InstallFlags,
): Promise<void> {
  const r = runInstall({
    agent,
    mode,
    workspace: f.workspace,
    global: f.global,
    dryRun: f.dryRun,
    tapedeckHome: f.home ?? process.env.TAPEDECK_HOME,
    retentionDays: intOption('retention-days', f.retentionDays, 1),
  });
  // The retention guard: what Claude Code's cleanup will delete soon, and whether it is archived.
  const retention = r.agent === 'claude-code' && mode === 'install' ? claudeRetention(f) : undefined;
  const { plan, ...rest } = r;
  if (f.json) printJson({ ...rest, files: plan.changes, ...(retention ? { retention } : {}) });
  else {
    print(formatInstall(r));
    if (retention) {
      print(formatRetention(retention));
      if (!retention.configured && !f.retentionDays)
        print('  (Tapedeck never changes it by itself; to keep sessions longer: --retention-days N)');
    }
  }
}

/** The guard's report, or undefined when the store cannot be opened (install must still work). */
function claudeRetention(f: GlobalFlags): RetentionReport | undefined {
  try {
    const engine = openEngine(f, { local: true });
    try {
      return retentionReport(engine);
    } finally {
      engine.close();
    }
  } catch {
    return undefined;
  }
}

export interface QueueFlags extends GlobalFlags {
  retryFailed?: boolean;
  fromHook?: boolean;
}

export async function runQueueFlush(f: QueueFlags): Promise<void> {
  const s = readHookSettings(process.env, f.home);
  const log = createLogger(s.paths.log, 'queue flush', { stderr: !f.fromHook && !f.json });
  const r = await flushQueue(s, {
    force: !f.fromHook,
    waitMs: f.fromHook ? 0 : 30_000,
    retryFailed: f.retryFailed,
    log,
  });
  if (f.json) return printJson(r);
  if (f.fromHook) return;
  if (!r.ran) return print('another queue worker is running; it saves what is queued (see tapedeck status)');
  for (const x of r.saved) print(`saved   ${x.thread} (${x.target}, ${x.how})`);
  for (const x of r.failed) print(`failed  ${x.thread}: ${x.error} [${x.outcome}]`);
  for (const b of r.bad) print(`set aside corrupted ${b.file}: ${b.reason}`);
  print(`${r.saved.length} saved, ${r.failed.length} failed, ${r.waiting} still queued`);
  if (r.failed.length > 0) process.exitCode = 1;
}

export async function runQueueList(f: GlobalFlags): Promise<void> {
  const s = readHookSettings(process.env, f.home);
  const { entries, bad } = scanQueue(s.paths);
  const out = {
    queued: entries.map((e) => e.item),
    failed: countFiles(s.paths.failed),
    corrupted: countFiles(s.paths.bad),
    set_aside_now: bad,
    folder: s.paths.queue,
  };
  if (f.json) return printJson(out);
  if (entries.length === 0) print('queue empty');
  for (const { item } of entries)
    print(
      `${item.thread}  queued ${item.queuedAt}  attempts ${item.attempts}${item.lastError ? `  last error: ${item.lastError}` : ''}`,
    );
  if (out.failed)
    print(`${out.failed} gave up: ${join(s.paths.failed)} (retry with tapedeck queue flush --retry-failed)`);
  if (out.corrupted) print(`${out.corrupted} corrupted, set aside in ${s.paths.bad}`);
}

export interface StatusFlags extends GlobalFlags {
  session?: string;
  agent?: string;
}

export async function runStatus(f: StatusFlags): Promise<void> {
  const s = readHookSettings(process.env, f.home);
  const st = await hookStatus(s, { session: f.session, agent: f.agent });
  const agents = installedIntegrations({ tapedeckHome: f.home ?? process.env.TAPEDECK_HOME }).filter(
    (a) => a.state !== 'not installed',
  );
  if (f.json) return printJson({ ...st, integrations: agents });
  const when = (iso?: string | null) => (iso ? iso.slice(0, 19).replace('T', ' ') : '—');
  print(`Tapedeck ${tildify(st.tapedeck_home)}: ${st.ok ? 'capture OK' : 'capture needs attention'}`);
  if (st.server) {
    print(
      `  server     ${st.server.url}: ${st.server.answering ? 'answering' : `NOT answering (${st.server.error})`}`,
    );
    if (st.server.circuit.open_until)
      print(
        `             circuit open until ${when(st.server.circuit.open_until)} (${st.server.circuit.last_error})`,
      );
  } else print('  server     none configured (saves go to the local store)');
  const q = st.queue;
  print(
    `  queue      ${q.waiting} waiting (${q.retrying} retrying), ${q.failed} gave up, ${q.corrupted} corrupted set aside`,
  );
  for (const i of q.items.filter((x) => x.attempts > 0).slice(0, 5))
    print(`             ${i.thread}: ${i.attempts} attempts, ${i.last_error}`);
  print(`  worker     ${st.worker.running ? `running (pid ${st.worker.pid})` : 'not running'}`);
  print(
    `  last error ${st.last_error ? `${when(st.last_error.at)} ${st.last_error.where}: ${st.last_error.message}` : 'none'}`,
  );
  const saves = Object.values(st.last_save);
  if (saves.length === 0) print('  last save  none yet');
  for (const r of saves)
    if (r) print(`  last save  ${r.agent.padEnd(12)} ${when(r.at)} ${r.thread} (${r.target})`);
  if (agents.length === 0) print('  agents     none connected (tapedeck install <agent>)');
  for (const a of agents)
    print(
      `  agent      ${a.agent} (${a.scope}): ${a.state}${a.state === 'installed' ? '' : ` — run tapedeck install ${a.agent}${a.scope === 'workspace' ? ' --workspace' : ''}${a.detail ? ` (${a.detail[0]})` : ''}`}`,
    );
  if (st.session)
    print(
      `  session    ${st.session.thread}: ${st.session.saved ? `saved ${when(st.session.last_save?.at)}` : 'not saved yet'}${st.session.queued ? `, queued${st.session.queued_error ? ` (${st.session.queued_error})` : ''}` : ''}`,
    );
}

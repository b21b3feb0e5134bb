/**
 * `tapedeck install <agent>` / `tapedeck uninstall <agent>`: build the plan for the agent and scope,
 * print it, and apply it unless it is a dry run. Idempotent: installing again finds nothing to
 * change; uninstalling removes only what Tapedeck added.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { packagePath } from '../../app/package-path.js';
import { invalidInput } from '../../core/errors.js';
import { AGENT_IDS, type AgentId, isAgentId } from '../../core/types.js';
import { antigravityPlan } from './agents/antigravity.js';
import { claudePlan } from './agents/claude-code.js';
import { codexPlan } from './agents/codex.js';
import { geminiPlan } from './agents/gemini-cli.js';
import type { AgentPlan, Mode, Scope, Target } from './agents/shared.js';
import type { Invocation } from './command.js';
import { applyPlan, type FileChange, lineDiff, type Plan, planEdits } from './plan.js';

const PLANS: Record<AgentId, (t: Target, mode: Mode) => AgentPlan> = {
  antigravity: antigravityPlan,
  'claude-code': claudePlan,
  codex: codexPlan,
  'gemini-cli': geminiPlan,
};

/** This package's bin/tapedeck.js. */
export const DEFAULT_BIN = packagePath('bin', 'tapedeck.js');

export interface InstallOptions {
  agent: string;
  mode: Mode;
  workspace?: string | boolean;
  global?: boolean;
  dryRun?: boolean;
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** Tapedeck data folder to pass on to hooks and MCP when it is not the default. */
  tapedeckHome?: string;
  /** Claude Code only: set its `cleanupPeriodDays` (the one way Tapedeck changes it). */
  retentionDays?: number;
  /** Override what installed files run (tests, packaging). */
  node?: string;
  bin?: string;
  platform?: string;
}

export interface InstallResult {
  agent: AgentId;
  mode: Mode;
  scope: Scope;
  dry_run: boolean;
  changes: { path: string; kind: FileChange['kind']; what: string[]; diff: string[] }[];
  notes: string[];
  /** The plan with whole contents, for --json. */
  plan: Plan;
}

export function resolveTarget(o: InstallOptions): Target {
  if (!isAgentId(o.agent))
    throw invalidInput(`Unknown agent "${o.agent}"; known agents: ${AGENT_IDS.join(', ')}`);
  if (o.global && o.workspace) throw invalidInput('Choose --workspace DIR or --global, not both');
  const env = o.env ?? process.env;
  const home = resolve(env.HOME || homedir());
  const cwd = o.cwd ?? process.cwd();
  const scope: Scope = o.workspace ? 'workspace' : 'global';
  const workspace = resolve(cwd, typeof o.workspace === 'string' ? o.workspace : '.');
  const defaultHome = join(home, '.tapedeck');
  const tapedeckHome = o.tapedeckHome ? resolve(o.tapedeckHome) : undefined;
  const inv: Invocation = {
    node: o.node ?? process.execPath,
    bin: o.bin ?? DEFAULT_BIN,
    tapedeckHome: tapedeckHome && tapedeckHome !== defaultHome ? tapedeckHome : undefined,
    platform: o.platform ?? process.platform,
  };
  if (o.retentionDays !== undefined) {
    if (o.agent !== 'claude-code')
      throw invalidInput('--retention-days sets Claude Code’s cleanupPeriodDays; it is for claude-code only');
    if (o.mode !== 'install') throw invalidInput('--retention-days goes with install');
    if (!Number.isInteger(o.retentionDays) || o.retentionDays < 1 || o.retentionDays > 100_000)
      throw invalidInput(
        `--retention-days must be a whole number of days from 1 to 100000, got ${o.retentionDays}`,
      );
  }
  return { agent: o.agent, scope, workspace, home, env, inv, retentionDays: o.retentionDays };
}

export function runInstall(o: InstallOptions): InstallResult {
  const t = resolveTarget(o);
  const p = PLANS[t.agent](t, o.mode);
  const plan = planEdits(p.edits, o.mode === 'uninstall' ? p.dirs : [], p.notes);
  if (!o.dryRun) applyPlan(plan);
  return {
    agent: t.agent,
    mode: o.mode,
    scope: t.scope,
    dry_run: !!o.dryRun,
    changes: plan.changes.map((c) => ({
      path: c.path,
      kind: c.kind,
      what: c.what,
      diff: c.kind === 'unchanged' ? [] : lineDiff(c.before, c.after),
    })),
    notes: plan.notes,
    plan,
  };
}

/** The plan for a person: one block per file, with its changed lines in a dry run. */
export function formatInstall(r: InstallResult): string {
  const verb = r.dry_run ? 'would' : 'did';
  const label: Record<FileChange['kind'], string> = {
    create: r.dry_run ? 'create' : 'created',
    update: r.dry_run ? 'update' : 'updated',
    delete: r.dry_run ? 'remove' : 'removed',
    unchanged: 'unchanged',
  };
  const changed = r.changes.filter((c) => c.kind !== 'unchanged');
  const lines = [
    `tapedeck ${r.mode} ${r.agent} (${r.scope})${r.dry_run ? ': dry run, nothing written' : ''}`,
    changed.length === 0
      ? `  nothing to change: ${r.mode === 'install' ? 'already installed' : 'nothing of Tapedeck found'}`
      : `  ${verb} change ${changed.length} file${changed.length === 1 ? '' : 's'}:`,
  ];
  for (const c of changed) {
    lines.push(`  ${label[c.kind].padEnd(9)} ${c.path}${c.what.length ? `  (${c.what.join('; ')})` : ''}`);
    if (r.dry_run) for (const d of c.diff.slice(0, 200)) lines.push(`      ${d}`);
  }
  for (const n of r.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}

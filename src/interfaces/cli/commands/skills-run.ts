/** The actions of `tapedeck skills …` (loaded only when one runs). */
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import type { SkillInput } from '../../../services/skills/service.js';
import type { SkillDetail, SkillSummary } from '../../../services/skills/views.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { print, printJson, tildify, warn } from '../output.js';
import { readText } from './read-text.js';

interface SkillFlags extends GlobalFlags {
  space?: string;
  note?: string;
  name?: string;
  description?: string;
  body?: string;
  bodyFile?: string;
  stage?: string;
  version?: string;
  all?: boolean;
  archived?: boolean;
  limit?: string;
  raw?: boolean;
  remove?: boolean;
  check?: string;
  passed?: boolean;
  failed?: boolean;
  proposal?: string;
  force?: boolean;
  workspace?: string;
  excludeFromGit?: boolean;
}

const scope = (f: SkillFlags) => ({ space: f.space, cwd: process.cwd() });

async function withEngine(
  flags: SkillFlags,
  fn: (e: Engine) => unknown,
  human: (r: never) => string,
): Promise<void> {
  const engine = openEngine(flags);
  try {
    const r = fn(engine);
    if (flags.json) printJson(r);
    else print(human(r as never));
  } finally {
    engine.close();
  }
}

/** The skill text from a file argument or the field options. */
function input(file: string | undefined, f: SkillFlags): SkillInput {
  if (file !== undefined && (f.description !== undefined || f.body !== undefined || f.bodyFile !== undefined))
    throw invalidInput('Give either a SKILL.md file or --description/--body, not both');
  if (f.body !== undefined && f.bodyFile !== undefined)
    throw invalidInput('Give --body or --body-file, not both');
  return {
    ...scope(f),
    content: file !== undefined ? readText(file) : undefined,
    source: file === undefined ? undefined : file === '-' ? 'standard input' : file,
    name: f.name,
    description: f.description,
    body: f.bodyFile !== undefined ? readText(f.bodyFile) : f.body,
    note: f.note,
  };
}

const line = (s: SkillSummary) => `${s.name}  [${s.badge}] ${s.stage} v${s.version} — ${s.description}`;

function detail(d: SkillDetail): string {
  const t = d.trust;
  const out = [
    `${d.name} v${d.shown_version}${d.shown_version !== d.version ? ` (current: v${d.version})` : ''} · ${d.stage} · ${d.badge} · space ${d.space}`,
    d.description,
    `trust: ${t.passed_checks} passed / ${t.failed_checks} failed checks, ${t.successful_outcomes} completed outcomes, ${t.evidence} evidence links (current version)`,
  ];
  if (d.tests.length)
    out.push(`tests: ${d.tests.map((x) => `${x.name} (${x.last_result ?? 'not run'})`).join(', ')}`);
  if (d.evidence.length) out.push(`evidence: ${d.evidence.map((e) => e.uri).join(' ')}`);
  if (d.pending_proposals.length)
    out.push(
      `pending proposals: ${d.pending_proposals.map((p) => `${p.id.slice(0, 8)} (on v${p.base_version})`).join(', ')}`,
    );
  out.push('', d.body.replace(/^\r?\n/, ''));
  return out.join('\n').trimEnd();
}

export const runAdd = (file: string | undefined, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.add({ ...input(file, f), stage: f.stage }),
    (r: SkillSummary) => `Added ${line(r)}`,
  );

export const runUpdate = (name: string, file: string | undefined, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.update(name, input(file, f)),
    (r: SkillSummary & { changed: boolean }) => (r.changed ? `Updated ${line(r)}` : `No change: ${line(r)}`),
  );

export const runList = (f: SkillFlags) =>
  withEngine(
    f,
    (e) => ({ skills: e.skills.list({ ...scope(f), stage: f.stage, includeArchived: f.all }) }),
    (r: { skills: SkillSummary[] }) =>
      r.skills.length
        ? r.skills.map(line).join('\n')
        : 'No skills yet. Add one with `tapedeck skills add SKILL.md`.',
  );

export const runFind = (task: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) =>
      e.skills.find(task, {
        ...scope(f),
        limit: intOption('limit', f.limit, 1),
        includeArchived: f.archived,
      }),
    (r: { hits: { name: string; badge: string; description: string; stage: string }[] }) =>
      r.hits.length
        ? `${r.hits.map((h) => `${h.name}  [${h.badge}]${h.stage === 'active' ? '' : ` ${h.stage}`} — ${h.description}`).join('\n')}\n(tapedeck skills show NAME loads one)`
        : 'No skill matches this task.',
  );

export async function runShow(name: string, f: SkillFlags): Promise<void> {
  const version = intOption('version', f.version, 1);
  if (f.raw) {
    const engine = openEngine(f);
    try {
      process.stdout.write(engine.skills.render(name, { ...scope(f), version }));
    } finally {
      engine.close();
    }
    return;
  }
  await withEngine(f, (e) => e.skills.show(name, { ...scope(f), version }), detail);
}

export const runStage = (name: string, stage: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.setStage(name, stage, scope(f)),
    (r: SkillSummary & { previous_stage: string }) =>
      `${r.name}: ${r.previous_stage} → ${r.stage} [${r.badge}]`,
  );

export async function runEvidence(name: string, links: string[], f: SkillFlags): Promise<void> {
  if (links.length === 0) {
    if (f.remove) throw invalidInput('Give the links to remove');
    return withEngine(
      f,
      (e) => ({ name, evidence: e.skills.show(name, scope(f)).evidence }),
      (r: { evidence: { uri: string; note: string | null }[] }) =>
        r.evidence.length
          ? r.evidence.map((x) => `${x.uri}${x.note ? `  ${x.note}` : ''}`).join('\n')
          : `${name} has no evidence yet.`,
    );
  }
  if (f.remove)
    return withEngine(
      f,
      (e) => e.skills.removeEvidence(name, links, scope(f)),
      (r: SkillSummary & { removed: string[] }) =>
        `Removed ${r.removed.length} link(s) from ${r.name} [${r.badge}]`,
    );
  return withEngine(
    f,
    (e) => e.skills.addEvidence(name, links, { ...scope(f), note: f.note }),
    (r: SkillSummary & { added: string[]; already: string[] }) =>
      `Linked ${r.added.length} new (${r.already.length} already there) to ${r.name} [${r.badge}]`,
  );
}

export async function runTest(name: string, test: string, f: SkillFlags): Promise<void> {
  if (f.passed && f.failed) throw invalidInput('Give --passed or --failed, not both');
  if (!f.passed && !f.failed && f.check === undefined)
    throw invalidInput('Give --check to define the test, or --passed / --failed to record a result');
  const version = intOption('version', f.version, 1);
  await withEngine(
    f,
    (e) => {
      const defined = f.check !== undefined ? e.skills.defineTest(name, test, f.check, scope(f)) : null;
      if (!f.passed && !f.failed) return defined;
      return e.skills.recordCheck(name, test, f.passed ? 'passed' : 'failed', {
        ...scope(f),
        note: f.note,
        version,
      });
    },
    (r: { name: string; badge: string; test: string; result?: string; created?: boolean }) =>
      r.result
        ? `${r.name}: test "${r.test}" ${r.result} → [${r.badge}]`
        : `${r.name}: test "${r.test}" ${r.created ? 'defined' : 'updated'}`,
  );
}

export const runOutcome = (name: string, outcome: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) =>
      e.skills.recordOutcome(name, outcome, {
        ...scope(f),
        note: f.note,
        version: intOption('version', f.version, 1),
      }),
    (r: { name: string; outcome: string; version: number; badge: string }) =>
      `${r.name} v${r.version}: ${r.outcome} → [${r.badge}]`,
  );

export const runPropose = (file: string | undefined, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.propose(input(file, f)),
    (r: { status: string; name: string; proposal: string | null }) =>
      r.status === 'created'
        ? `Created draft skill ${r.name} (activate it with \`tapedeck skills stage ${r.name} active\`)`
        : `Proposed a change to ${r.name}: ${r.proposal}\nreview: tapedeck skills proposals ${r.name}\naccept: tapedeck skills accept ${r.name} --proposal ${r.proposal?.slice(0, 8)}`,
  );

export const runProposals = (name: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) => ({ name, proposals: e.skills.proposals(name, { ...scope(f), all: f.all }) }),
    (r: {
      proposals: { id: string; status: string; base_version: number; note: string | null; content: string }[];
    }) =>
      r.proposals.length
        ? r.proposals
            .map(
              (p) =>
                `── ${p.id} (${p.status}, on v${p.base_version})${p.note ? ` ${p.note}` : ''}\n${p.content.trimEnd()}`,
            )
            .join('\n\n')
        : `${name} has no pending proposals.`,
  );

export const runAccept = (name: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.accept(name, f.proposal ?? '', { ...scope(f), force: f.force }),
    (r: SkillSummary & { proposal: string }) => `Accepted ${r.proposal.slice(0, 8)}: ${line(r)}`,
  );

export const runReject = (name: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.reject(name, f.proposal ?? '', scope(f)),
    (r: { proposal: string; name: string }) => `Rejected ${r.proposal.slice(0, 8)} for ${r.name}`,
  );

export async function runInstall(name: string, f: SkillFlags): Promise<void> {
  await withEngine(
    f,
    (e) =>
      e.skills.install(name, {
        ...scope(f),
        workspace: f.workspace,
        excludeFromGit: f.excludeFromGit,
        version: intOption('version', f.version, 1),
        force: f.force,
      }),
    (r: {
      path: string;
      status: string;
      version: number;
      git_exclude: { file: string; pattern: string; added: boolean } | null;
    }) => {
      const lines = [
        `${r.status === 'unchanged' ? 'Already installed' : r.status === 'updated' ? 'Updated' : 'Installed'} v${r.version}: ${tildify(r.path)}`,
      ];
      if (f.excludeFromGit && !r.git_exclude)
        warn('tapedeck: not inside a git repository; nothing to exclude');
      if (r.git_exclude)
        lines.push(
          `${r.git_exclude.added ? 'Excluded from git' : 'Already excluded from git'}: ${r.git_exclude.pattern} in ${tildify(r.git_exclude.file)}`,
        );
      return lines.join('\n');
    },
  );
}

export const runImport = (dir: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.importDir(dir, { ...scope(f), stage: f.stage }),
    (r: { skills: { name: string; status: string; version: number }[]; skipped: string[] }) =>
      [
        ...r.skills.map((s) => `${s.status.padEnd(9)} ${s.name} v${s.version}`),
        ...r.skipped.map((s) => `skipped   ${tildify(s)} (no SKILL.md)`),
      ].join('\n'),
  );

export const runExport = (dir: string, f: SkillFlags) =>
  withEngine(
    f,
    (e) => e.skills.exportDir(dir, { ...scope(f), stage: f.stage }),
    (r: { files: { path: string }[] }) =>
      r.files.length
        ? `Wrote ${r.files.length} skill(s):\n${r.files.map((x) => tildify(x.path)).join('\n')}`
        : 'No skills to export.',
  );

export const runSuggest = (dir: string | undefined, f: SkillFlags & { task?: string }) =>
  withEngine(
    f,
    (e) => e.skills.suggest(dir ?? '.', { ...scope(f), task: f.task, limit: intOption('limit', f.limit, 1) }),
    (r: {
      workspace: string;
      signals: string[];
      suggestions: { name: string; badge: string; description: string; reasons: string[] }[];
    }) => {
      if (!r.suggestions.length)
        return `No skill fits ${tildify(r.workspace)}${r.signals.length ? ` (it shows: ${r.signals.slice(0, 5).join('; ')})` : ''}.`;
      const lines = r.suggestions.flatMap((s, i) => [
        `${i + 1}. ${s.name}  [${s.badge}] — ${s.description}`,
        ...s.reasons.slice(0, 4).map((why) => `   because: ${why}`),
      ]);
      return [
        ...lines,
        '',
        'Load one for this turn only: tapedeck skills load NAME   (prints it; writes nothing)',
        'Or install it: tapedeck skills install NAME [--exclude-from-git]   (committed with the repo, or kept local in .git/info/exclude)',
      ].join('\n');
    },
  );

export async function runLoad(name: string, f: SkillFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const block = engine.skills.loadBlock(name, scope(f));
    if (f.json) printJson({ name, block });
    else process.stdout.write(block);
  } finally {
    engine.close();
  }
}

export async function runSync(f: SkillFlags & { quiet?: boolean }): Promise<void> {
  const { syncWorkspaceSkills } = await import('../../../app/skill-sync.js');
  const engine = openEngine(f);
  try {
    const r = syncWorkspaceSkills(engine, f.workspace ?? process.cwd());
    if (f.json) printJson({ skills: r });
    else if (!f.quiet)
      print(
        r.length
          ? r
              .map(
                (s) =>
                  `${s.name}: ${s.status}${s.version ? ` (v${s.version})` : ''}${s.error ? ` — ${s.error}` : ''}`,
              )
              .join('\n')
          : 'No skills installed in this workspace (.agents/skills).',
      );
  } finally {
    engine.close();
  }
}

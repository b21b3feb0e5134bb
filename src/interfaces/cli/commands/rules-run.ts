/** The work behind `tapedeck rules …` (loaded only when one of those commands runs). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { invalidInput } from '../../../core/errors.js';
import type { ResolvedRule, Rule } from '../../../services/rules.js';
import { type GlobalFlags, openEngine } from '../context.js';
import { print, printJson } from '../output.js';
import { bold, dim } from '../style.js';

/** `project:.`, `project:~/src/x` and other relative project scopes become absolute here. */
function scopeArg(scope: string | undefined): string | undefined {
  if (!scope?.startsWith('project:')) return scope;
  let dir = scope.slice('project:'.length);
  if (!dir || /^(?:\/|[A-Za-z]:[\\/])/.test(dir)) return scope;
  if ((dir === '~' || dir.startsWith('~/')) && process.env.HOME) dir = process.env.HOME + dir.slice(1);
  return `project:${resolve(dir)}`;
}

function formatRule(r: Rule | ResolvedRule, i?: number): string {
  const head = `${i === undefined ? '' : `${i + 1}. `}${bold(r.title)}${r.enabled ? '' : ' (disabled)'}`;
  const why = 'reason' in r ? ` · applies: ${r.reason}` : '';
  const meta = dim(`   ${r.id.slice(0, 8)} · ${r.scope} · priority ${r.priority}${why}`);
  const body =
    r.body === r.title
      ? ''
      : `\n${r.body
          .split('\n')
          .map((l) => `   ${l}`)
          .join('\n')}`;
  const note = r.note ? `\n${dim(`   note: ${r.note}`)}` : '';
  return `${head}\n${meta}${body}${note}`;
}

export async function runRulesAdd(
  words: string[],
  f: GlobalFlags & { title?: string; scope?: string; priority?: string; disabled?: boolean; note?: string },
): Promise<void> {
  const body = words.length === 1 && words[0] === '-' ? readFileSync(0, 'utf8') : words.join(' ');
  const engine = openEngine(f);
  try {
    const rule = await engine.rules.add({
      body,
      title: f.title,
      scope: scopeArg(f.scope),
      priority: f.priority,
      enabled: !f.disabled,
      note: f.note,
    });
    if (f.json) printJson(rule);
    else print(`Added rule:\n${formatRule(rule)}`);
  } finally {
    engine.close();
  }
}

export async function runRulesList(
  f: GlobalFlags & { scope?: string; space?: string; allSpaces?: boolean },
): Promise<void> {
  if (f.space && f.allSpaces) throw invalidInput('Give either --space or --all-spaces, not both');
  const engine = openEngine(f);
  try {
    const r = await engine.rules.list({
      scope: scopeArg(f.scope),
      space: f.space,
      allSpaces: f.allSpaces,
      cwd: process.cwd(),
    });
    if (f.json) printJson(r);
    else
      print(
        r.rules.length
          ? r.rules.map((x, i) => formatRule(x, i)).join('\n\n')
          : 'No rules. Add one with `tapedeck rules add "…"`.',
      );
  } finally {
    engine.close();
  }
}

export async function runRulesUpdate(
  id: string,
  f: GlobalFlags & {
    body?: string;
    title?: string;
    scope?: string;
    priority?: string;
    enable?: boolean;
    disable?: boolean;
    note?: string;
  },
): Promise<void> {
  if (f.enable && f.disable) throw invalidInput('Give either --enable or --disable, not both');
  const engine = openEngine(f);
  try {
    const rule = await engine.rules.update(id, {
      body: f.body,
      title: f.title,
      scope: scopeArg(f.scope),
      priority: f.priority,
      enabled: f.enable ? true : f.disable ? false : undefined,
      note: f.note,
    });
    if (f.json) printJson(rule);
    else print(`Updated rule:\n${formatRule(rule)}`);
  } finally {
    engine.close();
  }
}

export async function runRulesRemove(id: string, f: GlobalFlags & { yes?: boolean }): Promise<void> {
  if (!f.yes)
    throw invalidInput('remove deletes a rule for good; confirm with --yes (or disable it instead)');
  const engine = openEngine(f);
  try {
    const r = await engine.rules.remove(id);
    if (f.json) printJson(r);
    else print(`Removed rule ${r.id}.`);
  } finally {
    engine.close();
  }
}

export async function runRulesResolve(
  f: GlobalFlags & { agent?: string; project?: string; space?: string },
): Promise<void> {
  const engine = openEngine(f);
  try {
    const r = await engine.rules.resolve({
      agent: f.agent,
      project: f.project ? resolve(f.project) : undefined,
      space: f.space,
      cwd: process.cwd(),
    });
    if (f.json) printJson(r);
    else {
      print(dim(`agent ${r.agent ?? 'any'} · project ${r.project ?? 'none'} · space ${r.space}`));
      print(r.rules.length ? r.rules.map((x, i) => formatRule(x, i)).join('\n\n') : 'No rules apply.');
    }
  } finally {
    engine.close();
  }
}

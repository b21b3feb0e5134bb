/**
 * Standing rules: always-on instructions scoped to everyone (global), one agent, one project (and
 * the directories below it) or one space. `resolve` answers "what applies here, in what order";
 * the context bundle uses the same call, so the order is defined once (core/rules.ts compareRules).
 */
import { invalidInput, notFound, TapedeckError } from '../core/errors.js';
import { isAbsolutePath, normalizeProjectPath } from '../core/paths.js';
import { redact } from '../core/redact.js';
import {
  compareRules,
  formatScope,
  parseScope,
  RULE_TEXT_FIELDS,
  type Rule,
  type RuleScope,
  type RuleTextField,
  scopeApplies,
} from '../core/rules.js';
import { squash, titleFrom } from '../core/text.js';
import { AGENT_IDS, isAgentId } from '../core/types.js';
import type { RuleStore } from '../ports/rule-store.js';
import type { SpaceService } from './spaces.js';

export const MAX_RULE_BODY = 10_000;
const MAX_TITLE = 200;
const MAX_PRIORITY = 1000;

/** The optional text fields (core/rules.ts RULE_TEXT_FIELDS): '' or null clears one on update. */
export type RuleTextInput = Partial<Record<RuleTextField, string | null>>;

export interface RuleAddInput extends RuleTextInput {
  body: string;
  title?: string;
  /** global (default), agent:<id>, project:<absolute path>, space:<name>. */
  scope?: string;
  /** Higher applies first; whole number from -1000 to 1000 (default 0). */
  priority?: number | string;
  enabled?: boolean;
}

export type RuleUpdateInput = Partial<RuleAddInput>;

export interface RuleListInput {
  /** Only this exact scope (an explicit ask: may name another space). */
  scope?: string;
  /** The space whose space-scoped rules are listed beside the unscoped ones. */
  space?: string;
  /** Every rule, whatever its space. */
  allSpaces?: boolean;
  cwd?: string;
}

export interface ResolveInput {
  agent?: string;
  project?: string;
  space?: string;
  cwd?: string;
}

export interface ResolvedRule extends Rule {
  /** Why it applies: `global`, `agent codex`, `project /home/me/shop`, `space work`. */
  reason: string;
}

export interface RuleResolution {
  agent: string | null;
  project: string | null;
  space: string;
  /** Enabled rules that apply, in the order to follow them (see compareRules). */
  rules: ResolvedRule[];
}

export interface RuleService {
  add(input: RuleAddInput): Promise<Rule>;
  /** By id or a unique id prefix of 8+ characters. */
  get(ref: string): Promise<Rule>;
  update(ref: string, patch: RuleUpdateInput): Promise<Rule>;
  remove(ref: string): Promise<{ id: string; removed: true }>;
  /** Rules in the order they apply; space-scoped rules of other spaces only with allSpaces. */
  list(input?: RuleListInput): Promise<{ rules: Rule[] }>;
  /** The enabled rules for an agent, project and space, ordered: what the context bundle uses. */
  resolve(input?: ResolveInput): Promise<RuleResolution>;
}

export interface RuleServiceDeps {
  store: RuleStore;
  spaces: SpaceService;
  now?: () => number;
}

function cleanBody(body: unknown): string {
  if (typeof body !== 'string' || body.trim() === '') throw invalidInput('The rule body is empty');
  const b = body.trim();
  if (b.length > MAX_RULE_BODY)
    throw invalidInput(
      `The rule body is ${b.length.toLocaleString('en-US')} characters; the limit is 10,000`,
    );
  return redact(b).text;
}

function cleanTitle(title: unknown, body: string): string {
  if (title === undefined || title === null || (typeof title === 'string' && title.trim() === ''))
    return titleFrom(body, 80);
  const t = squash(String(title));
  if (t.length > MAX_TITLE) throw invalidInput(`The rule title is over ${MAX_TITLE} characters`);
  return redact(t).text;
}

function cleanPriority(p: unknown, fallback: number): number {
  if (p === undefined || p === null || p === '') return fallback;
  const n = typeof p === 'number' ? p : Number(String(p).trim());
  if (!Number.isInteger(n) || Math.abs(n) > MAX_PRIORITY)
    throw invalidInput(
      `priority must be a whole number from -${MAX_PRIORITY} to ${MAX_PRIORITY}, got "${p}"`,
    );
  return n;
}

const TEXT_FIELDS = Object.keys(RULE_TEXT_FIELDS) as RuleTextField[];

function cleanText(field: RuleTextField, value: unknown): string | null {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return null;
  const t = String(value).trim();
  const max = RULE_TEXT_FIELDS[field];
  if (t.length > max)
    throw invalidInput(`The rule ${field} is over ${max.toLocaleString('en-US')} characters`);
  return redact(t).text;
}

/** The text fields given in `input`, cleaned (all of them, null when absent, with `all`). */
function cleanTexts(input: RuleTextInput, all: boolean): RuleTextInput {
  const out: RuleTextInput = {};
  for (const f of TEXT_FIELDS) if (all || input[f] !== undefined) out[f] = cleanText(f, input[f]);
  return out;
}

const cleanScope = (scope: unknown): RuleScope =>
  scope === undefined || scope === null || scope === ''
    ? { kind: 'global', value: null }
    : parseScope(String(scope));

function reasonOf(s: RuleScope): string {
  return s.kind === 'global' ? 'global' : `${s.kind} ${s.value}`;
}

export function createRuleService({ store, spaces, now = Date.now }: RuleServiceDeps): RuleService {
  const iso = () => new Date(now()).toISOString();

  async function resolveId(ref: string): Promise<string> {
    if (typeof ref !== 'string' || ref.trim() === '') throw invalidInput('A rule id is required');
    const id = ref.trim();
    if (await store.get(id)) return id;
    if (id.length >= 8) {
      const ids = await store.idsWithPrefix(id, 6);
      if (ids.length === 1) return ids[0];
      if (ids.length > 1)
        throw invalidInput(`"${id}" matches several rules (${ids.join(', ')}); give more of the id`);
    }
    throw notFound(`No rule "${ref}"; list rules with \`tapedeck rules list\``);
  }

  return {
    async add(input) {
      const body = cleanBody(input.body);
      const at = iso();
      const rule: Rule = {
        id: crypto.randomUUID(),
        title: cleanTitle(input.title, body),
        body,
        scope: formatScope(cleanScope(input.scope)),
        enabled: input.enabled ?? true,
        priority: cleanPriority(input.priority, 0),
        ...(cleanTexts(input, true) as Record<RuleTextField, string | null>),
        created_at: at,
        updated_at: at,
      };
      await store.write((w) => w.put(rule));
      return rule;
    },

    async get(ref) {
      const rule = await store.get(await resolveId(ref));
      if (!rule) throw notFound(`No rule "${ref}"`);
      return rule;
    },

    async update(ref, patch) {
      const id = await resolveId(ref);
      const body = patch.body !== undefined ? cleanBody(patch.body) : undefined;
      const scope = patch.scope !== undefined ? formatScope(cleanScope(patch.scope)) : undefined;
      const priority = patch.priority !== undefined ? cleanPriority(patch.priority, 0) : undefined;
      const texts = cleanTexts(patch, false);
      if (
        [body, scope, priority, patch.title, patch.enabled].every((x) => x === undefined) &&
        !Object.keys(texts).length
      )
        throw invalidInput('Nothing to update: give at least one field to change');
      return store.write(async (w) => {
        const old = await w.get(id);
        if (!old) throw notFound(`No rule "${id}"`);
        const nextBody = body ?? old.body;
        const next: Rule = {
          ...old,
          body: nextBody,
          title: patch.title !== undefined ? cleanTitle(patch.title, nextBody) : old.title,
          scope: scope ?? old.scope,
          priority: priority ?? old.priority,
          enabled: patch.enabled ?? old.enabled,
          ...texts,
          updated_at: iso(),
        };
        await w.put(next);
        return next;
      });
    },

    async remove(ref) {
      const id = await resolveId(ref);
      const removed = await store.write((w) => w.remove(id));
      if (!removed) throw new TapedeckError('NOT_FOUND', `No rule "${id}"`);
      return { id, removed: true };
    },

    async list(input = {}) {
      if (input.scope !== undefined && input.scope !== '') {
        return { rules: (await store.list({ scopes: [cleanScope(input.scope)] })).sort(compareRules) };
      }
      if (input.allSpaces) return { rules: (await store.list()).sort(compareRules) };
      const space = spaces.resolve({ space: input.space, cwd: input.cwd });
      const rules = (await store.list())
        .filter((r) => {
          const s = parseScope(r.scope);
          return s.kind !== 'space' || s.value === space;
        })
        .sort(compareRules);
      return { rules };
    },

    async resolve(input = {}) {
      const agent = input.agent?.trim() || undefined;
      if (agent && !isAgentId(agent))
        throw invalidInput(`Unknown agent "${agent}"; known: ${AGENT_IDS.join(', ')}`);
      let project: string | undefined;
      if (input.project) {
        if (!isAbsolutePath(input.project.trim()))
          throw invalidInput(`The project must be an absolute directory, got "${input.project}"`);
        project = normalizeProjectPath(input.project);
      }
      const space = spaces.resolve({ space: input.space, project, cwd: input.cwd });
      const at = { agent, project, space };
      const rules = (await store.list({ enabled: true }))
        .map((r) => ({ rule: r, scope: parseScope(r.scope) }))
        .filter((x) => scopeApplies(x.scope, at))
        .map((x) => ({ ...x.rule, reason: reasonOf(x.scope) }))
        .sort(compareRules);
      return { agent: agent ?? null, project: project ?? null, space, rules };
    },
  };
}

export type { Rule };

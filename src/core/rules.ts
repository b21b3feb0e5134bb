/** Standing rules (DESIGN.md): pure types, scope syntax and the order in which rules apply. */
import { invalidInput } from './errors.js';
import { isAbsolutePath, isUnder, normalizeProjectPath } from './paths.js';
import { checkSpaceName } from './spaces.js';
import { AGENT_IDS, isAgentId } from './types.js';

export type ScopeKind = 'global' | 'agent' | 'project' | 'space';

/** `global`, `agent:<agent id>`, `project:<absolute path>` or `space:<space>`. */
export interface RuleScope {
  kind: ScopeKind;
  /** Agent id, project path or space name; null for global. */
  value: string | null;
}

/**
 * A rule's optional free-text fields and their length limits. Each is stored as given (trimmed;
 * empty means none, `null`), and the service, export and import handle every one alike, so a new
 * one is declared here (with its column in storage/rule-store.ts and its field in the catalogue).
 */
export const RULE_TEXT_FIELDS = {
  /** Why the rule exists or where it came from (a review, a handbook URL). */
  note: 1000,
  /** Who to ask about the rule or may change it: a person or a team (`@payments`, `ana@shop.dev`). */
  owner: 200,
} as const;

export type RuleTextField = keyof typeof RULE_TEXT_FIELDS;

export interface Rule extends Record<RuleTextField, string | null> {
  id: string;
  title: string;
  body: string;
  /** The scope as written: `global`, `agent:codex`, `project:/home/me/shop`, `space:work`. */
  scope: string;
  enabled: boolean;
  priority: number;
  created_at: string;
  updated_at: string;
}

/** How specific a scope is when priorities tie: project > agent > space > global. */
export const SPECIFICITY: Record<ScopeKind, number> = { project: 3, agent: 2, space: 1, global: 0 };

/** Parse and validate a scope; the error names what is wrong. */
export function parseScope(input: string): RuleScope {
  const s = input.trim();
  if (s === 'global') return { kind: 'global', value: null };
  const colon = s.indexOf(':');
  const kind = colon === -1 ? s : s.slice(0, colon);
  const value = colon === -1 ? '' : s.slice(colon + 1).trim();
  const usage = 'a scope is global, agent:<id>, project:<absolute path> or space:<name>';
  switch (kind) {
    case 'agent':
      if (!isAgentId(value))
        throw invalidInput(`Unknown agent "${value}" in scope "${s}"; known: ${AGENT_IDS.join(', ')}`);
      return { kind, value };
    case 'project':
      if (!value || !isAbsolutePath(value))
        throw invalidInput(`The project in scope "${s}" must be an absolute path (${usage})`);
      return { kind, value: normalizeProjectPath(value) };
    case 'space':
      return { kind, value: checkSpaceName(value, `space in scope "${s}"`) };
    default:
      throw invalidInput(`Invalid scope "${s}": ${usage}`);
  }
}

export const formatScope = (s: RuleScope) => (s.kind === 'global' ? 'global' : `${s.kind}:${s.value}`);

/**
 * The order rules apply in (what `rules resolve` and the context bundle use): priority, highest
 * first; then specificity (project > agent > space > global; a deeper project first); then age,
 * oldest first, since a long-standing rule is the base others refine; then id for stability.
 */
export function compareRules(a: Rule, b: Rule): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  const sa = parseScope(a.scope);
  const sb = parseScope(b.scope);
  if (sa.kind !== sb.kind) return SPECIFICITY[sb.kind] - SPECIFICITY[sa.kind];
  if (sa.kind === 'project') {
    const d = (sb.value?.length ?? 0) - (sa.value?.length ?? 0);
    if (d !== 0) return d;
  }
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Whether a rule's scope covers a call for this agent, project and space. */
export function scopeApplies(
  scope: RuleScope,
  at: { agent?: string; project?: string; space: string },
): boolean {
  switch (scope.kind) {
    case 'global':
      return true;
    case 'agent':
      return at.agent === scope.value;
    case 'space':
      return at.space === scope.value;
    case 'project':
      return !!at.project && !!scope.value && isUnder(at.project, scope.value);
  }
}

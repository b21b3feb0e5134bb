/**
 * Rules seen through a gate. Global, agent and project rules apply in every space, so a key
 * limited to some spaces reads them but may only add, change or remove `space:<its space>`
 * rules; another space's rules are NOT_FOUND for it.
 */
import { notFound } from '../../core/errors.js';
import { parseScope, type Rule } from '../../core/rules.js';
import type { RuleService } from '../rules.js';
import type { SpaceService } from '../spaces.js';
import { forbidden, type Gate } from './access.js';

export function scopeRules(r: RuleService, gate: Gate, deps: { spaces: SpaceService }): RuleService {
  const spaceOf = (scope: string) => {
    const s = parseScope(scope);
    return s.kind === 'space' ? s.value : null;
  };
  const visible = (rule: Rule) => {
    const s = spaceOf(rule.scope);
    return s === null || gate.sees(s);
  };
  async function own(ref: string): Promise<Rule> {
    const rule = await r.get(ref);
    if (!visible(rule)) throw notFound(`No rule "${ref}"; list rules with \`tapedeck rules list\``);
    return rule;
  }
  /** A restricted key writes only rules scoped to one of its spaces. */
  function writable(scope: string | undefined): void {
    if (!gate.restricted) return;
    const s = scope === undefined || scope === '' ? null : spaceOf(scope);
    if (s === null)
      throw forbidden('A key limited to spaces may only manage space:<name> rules of its spaces');
    if (!gate.sees(s)) throw forbidden(`This key cannot use space "${s}"`);
  }
  const fallback = () => deps.spaces.resolve({});

  return {
    get: (ref) => own(ref),
    async add(input) {
      gate.require('write', 'adding a rule');
      writable(input.scope);
      return r.add(input);
    },
    async update(ref, patch) {
      gate.require('write', 'changing a rule');
      const rule = await own(ref);
      writable(rule.scope);
      if (patch.scope !== undefined) writable(patch.scope);
      return r.update(rule.id, patch);
    },
    async remove(ref) {
      gate.require('write', 'removing a rule');
      const rule = await own(ref);
      writable(rule.scope);
      return r.remove(rule.id);
    },
    async list(input = {}) {
      if (!gate.restricted) return r.list(input);
      if (input.scope) {
        const s = spaceOf(input.scope);
        if (s !== null && !gate.sees(s)) throw forbidden(`This key cannot use space "${s}"`);
        return r.list({ scope: input.scope });
      }
      if (input.allSpaces) return { rules: (await r.list({ allSpaces: true })).rules.filter(visible) };
      return r.list({ space: gate.space(input.space, fallback) });
    },
    async resolve(input = {}) {
      if (!gate.restricted) return r.resolve(input);
      const space = gate.space(input.space, () => deps.spaces.resolve({ project: input.project }));
      return r.resolve({ ...input, space, cwd: undefined });
    },
  };
}

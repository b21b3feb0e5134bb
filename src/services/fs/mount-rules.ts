/**
 * `/rules/<id>.md`: the standing rules visible in the space (global, agent, project and this
 * space's rules), in the order they apply. Read-only: rules change through `tapedeck rules`, where
 * scope and priority are explicit arguments rather than front matter to get wrong.
 */
import { parseQuery } from '../../core/query.js';
import { squash } from '../../core/text.js';
import type { Rule, RuleService } from '../rules.js';
import { renderRule } from './render.js';
import {
  bytes,
  type FsFile,
  type FsNode,
  type FsScope,
  idOfFile,
  type Mount,
  pathOf,
  staticDir,
} from './tree.js';

export function createRulesMount({ rules }: { rules: RuleService }): Mount {
  const at = (rest: string[]) => pathOf('rules', rest);

  function file(r: Rule): FsFile {
    const text = renderRule(r);
    return {
      kind: 'file',
      name: `${r.id}.md`,
      path: at([`${r.id}.md`]),
      title: r.title,
      created_at: r.created_at,
      updated_at: r.updated_at,
      link: `tapedeck://fs${at([`${r.id}.md`])}`,
      writable: false,
      size: bytes(text),
      info: { scope: r.scope, priority: r.priority, enabled: r.enabled },
      read: () => text,
    };
  }

  const visible = async (scope: FsScope) => (await rules.list({ space: scope.space, cwd: scope.cwd })).rules;

  return {
    name: 'rules',
    description: 'standing rules that apply in the space, in the order they apply',
    writable: null,
    async resolve(segments, scope): Promise<FsNode | undefined> {
      if (segments.length === 0) {
        // Read once here: a folder lists synchronously, the store answers asynchronously.
        const files = (await visible(scope)).map(file);
        return staticDir({ path: at([]), name: 'rules', writable: false }, () => files);
      }
      const id = segments.length === 1 ? idOfFile(segments[0]) : null;
      const r = id ? (await visible(scope)).find((x) => x.id === id) : undefined;
      return r ? file(r) : undefined;
    },
    async recall(query, segments, scope, limit) {
      // A handful of rules: score each by the share of query words it contains.
      const words = parseQuery(query)
        .terms.map((t) => t.text.toLowerCase())
        .filter(Boolean);
      if (words.length === 0) return [];
      const id = segments.length === 1 ? idOfFile(segments[0]) : null;
      return (await visible(scope))
        .filter((r) => !id || r.id === id)
        .map((r) => {
          const text = `${r.title}\n${r.body}`.toLowerCase();
          return { r, score: words.filter((w) => text.includes(w)).length / words.length };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, limit)
        .map(({ r, score }) => ({
          path: at([`${r.id}.md`]),
          title: r.title,
          snippet: squash(r.body).slice(0, 200),
          score: Math.round(score * 1000) / 1000,
        }));
    },
  };
}

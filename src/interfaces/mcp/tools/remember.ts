/**
 * `remember`: the agent writes what should outlive the session. add (a duplicate returns the
 * existing memory), supersede (the fact changed: the old one is kept as history), update (fix
 * wording or labels), forget (hidden, undoable; needs `confirm: true`), restore, and rule (an
 * instruction followed every time). Hard deletes stay on the CLI.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { runOp } from '../../../catalog/index.js';
import { rulesAdd } from '../../../catalog/rules.js';
import { invalidInput } from '../../../core/errors.js';
import { UNIT_TYPES } from '../../../core/memory.js';
import { LEAN_DESTRUCTIVE } from '../annotations.js';
import { memoryHead, renderRule } from '../render.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { projectArg, projectPath, refuse, reply, str } from './shared.js';

export function registerRememberTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { memories } = engine;
  server.registerTool(
    'remember',
    {
      description:
        'When something is decided or learned, save it with its thread link. action: add (default), supersede id (it changed), update id, forget id (confirm: true), restore id, rule (follow always; scope).',
      inputSchema: {
        action: z.enum(['add', 'supersede', 'update', 'forget', 'restore', 'rule']).optional(),
        id: str(200).optional(),
        content: str(100_000).optional(),
        type: z.enum(UNIT_TYPES).optional(),
        labels: z.array(str(100)).optional(),
        project: projectArg,
        thread: str(400).optional().describe('tapedeck://thread/<id>#<step>'),
        scope: str(4200).optional().describe('rule: global, project:., agent:<id>'),
        confirm: z.boolean().optional(),
      },
      outputSchema: { link: z.string(), status: z.string() },
      annotations: LEAN_DESTRUCTIVE,
    },
    guard(async ({ action = 'add', id, content, type, labels, project, thread, scope, confirm }) => {
      const cwd = process.cwd();
      const need = <T>(v: T | undefined, what: string): T => {
        if (v === undefined || v === '') throw invalidInput(`${action} needs ${what}`);
        return v;
      };
      const fields = { type, labels, project: projectPath(project), thread };
      switch (action) {
        case 'add': {
          const m = memories.add({ content: need(content, 'content'), ...fields, cwd });
          const how = m.deduplicated ? `already known (${m.match} duplicate); labels merged` : 'saved';
          return reply(`${how}: ${memoryHead(m)}`, {
            link: m.link,
            status: m.deduplicated ? 'deduplicated' : 'created',
          });
        }
        case 'supersede': {
          const m = memories.supersede(need(id, 'id'), { content: need(content, 'content'), ...fields });
          return reply(`superseded ${m.supersedes.join(', ')} with: ${memoryHead(m)}`, {
            link: m.link,
            status: 'superseded',
          });
        }
        case 'update': {
          const m = memories.update(need(id, 'id'), { content, ...fields });
          return reply(`updated: ${memoryHead(m)}`, { link: m.link, status: 'updated' });
        }
        case 'forget': {
          if (confirm !== true)
            return refuse(
              'Not forgotten: forget hides the memory; call again with confirm: true if that is intended.',
            );
          const m = memories.forget(need(id, 'id'));
          return reply(`${m.changed ? 'forgotten' : 'already forgotten'}: ${m.link} (restore undoes it)`, {
            link: m.link,
            status: 'forgotten',
          });
        }
        case 'restore': {
          const m = memories.restore(need(id, 'id'));
          return reply(`${m.changed ? 'restored' : 'was not forgotten'}: ${memoryHead(m)}`, {
            link: m.link,
            status: 'active',
          });
        }
        case 'rule': {
          const r = await runOp(rulesAdd, engine, {
            body: need(content, 'content'),
            scope: ruleScope(scope),
          });
          return reply(`added rule: ${renderRule(r, 0).slice(3)}`, {
            link: `rule:${r.id}`,
            status: 'created',
          });
        }
      }
    }),
  );
}

/** `project:.` and relative project scopes mean the server's working directory. */
function ruleScope(scope: string | undefined): string | undefined {
  if (!scope?.startsWith('project:')) return scope;
  return `project:${projectPath(scope.slice('project:'.length))}`;
}

/**
 * MCP tools for standing rules. list/resolve are read-only; add/update write; remove is
 * destructive and needs `confirm: true`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { AGENT_IDS } from '../../../core/types.js';
import { DESTRUCTIVE, READ, WRITE } from '../annotations.js';
import { renderRule } from '../render.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';

const SCOPE = 'global, agent:<id>, project:<absolute dir> or space:<name>';

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

export function registerRulesTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { rules } = engine;
  const cwd = process.cwd();

  server.registerTool(
    'rules_resolve',
    {
      title: 'Rules that apply here',
      description:
        'The standing rules to follow now, in order, for this agent, project and space. Call at the start of a task when no context bundle was given.',
      inputSchema: {
        agent: z.enum(AGENT_IDS).optional(),
        project: z.string().optional().describe('Absolute project dir'),
        space: z.string().optional(),
      },
      annotations: READ,
    },
    guard(async ({ agent, project, space }) => {
      const r = await rules.resolve({ agent, project, space, cwd });
      const head = `space ${r.space}${r.agent ? `, agent ${r.agent}` : ''}${r.project ? `, project ${r.project}` : ''}`;
      return text(
        r.rules.length ? `${head}\n${r.rules.map(renderRule).join('\n')}` : `${head}: no rules apply.`,
      );
    }),
  );

  server.registerTool(
    'rules_list',
    {
      title: 'List rules',
      description: 'List standing rules with ids, scopes and priorities, to review or edit them.',
      inputSchema: {
        scope: z.string().optional().describe(SCOPE),
        space: z.string().optional(),
        all_spaces: z.boolean().optional(),
      },
      annotations: READ,
    },
    guard(async ({ scope, space, all_spaces }) => {
      const r = await rules.list({ scope, space, allSpaces: all_spaces, cwd });
      return text(r.rules.length ? r.rules.map(renderRule).join('\n') : 'No rules.');
    }),
  );

  server.registerTool(
    'rules_add',
    {
      title: 'Add a rule',
      description: 'Save an instruction the user wants followed every time (e.g. "use pnpm, never npm").',
      inputSchema: {
        body: z.string(),
        title: z.string().optional(),
        scope: z.string().optional().describe(`${SCOPE}; default global`),
        priority: z.number().int().optional().describe('Higher first; default 0'),
        enabled: z.boolean().optional(),
        note: z.string().max(1000).optional().describe('Why the rule exists or where it came from'),
      },
      annotations: WRITE,
    },
    guard(async (input) => {
      const r = await rules.add(input);
      return text(`added: ${renderRule(r, 0).slice(3)}`);
    }),
  );

  server.registerTool(
    'rules_update',
    {
      title: 'Change a rule',
      description: 'Change a rule’s body, title, scope, priority, or switch it on/off.',
      inputSchema: {
        id: z.string(),
        body: z.string().optional(),
        title: z.string().optional(),
        scope: z.string().optional(),
        priority: z.number().int().optional(),
        enabled: z.boolean().optional(),
        note: z.string().max(1000).optional().describe('"" clears it'),
      },
      annotations: { ...WRITE, idempotentHint: true },
    },
    guard(async ({ id, ...patch }) =>
      text(`updated: ${renderRule(await rules.update(id, patch), 0).slice(3)}`),
    ),
  );

  server.registerTool(
    'rules_remove',
    {
      title: 'Delete a rule',
      description:
        'Delete a rule for good (rules_update enabled: false only switches it off). Needs confirm: true.',
      inputSchema: { id: z.string(), confirm: z.boolean().optional() },
      annotations: DESTRUCTIVE,
    },
    guard(async ({ id, confirm }) => {
      if (confirm !== true)
        return {
          isError: true,
          content: [
            {
              type: 'text',
              text: 'rules_remove deletes the rule for good; call again with confirm: true if that is intended.',
            },
          ],
        };
      return text(`removed rule ${(await rules.remove(id)).id}`);
    }),
  );
}

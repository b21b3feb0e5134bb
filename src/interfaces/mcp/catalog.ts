/**
 * The catalogue's MCP projection: each operation is a per-verb tool of `mcpTools: full`
 * (`rules.add` → `rules_add`) whose input schema, output schema and annotations come from the
 * operation; a destructive one also needs `confirm: true`. The answer is the operation's result as
 * structured content, with a short text rendering for clients that only read text.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Engine } from '../../app/engine.js';
import { CATALOG, type OpEffect, type Operation, runOp } from '../../catalog/index.js';
import type { Rule } from '../../core/rules.js';
import type { ResolvedRule } from '../../services/rules.js';
import { DESTRUCTIVE, IDEMPOTENT_WRITE, READ, WRITE } from './annotations.js';
import { renderRule } from './render.js';
import type { Guard } from './server.js';
import type { ToolRegistrar } from './tool-list.js';

const ANNOTATIONS: Record<OpEffect, Tool['annotations']> = {
  read: READ,
  write: WRITE,
  'idempotent-write': IDEMPOTENT_WRITE,
  destructive: DESTRUCTIVE,
};

type Render = (out: never) => string;
const rules = (list: (Rule | ResolvedRule)[], none: string) =>
  list.length ? list.map(renderRule).join('\n') : none;

/** The text beside the structured answer; an operation without one is answered in JSON. */
const TEXT: Record<string, Render> = {
  'rules.add': (r: Rule) => `added: ${renderRule(r, 0).slice(3)}`,
  'rules.update': (r: Rule) => `updated: ${renderRule(r, 0).slice(3)}`,
  'rules.remove': (r: { id: string }) => `removed rule ${r.id}`,
  'rules.list': (r: { rules: Rule[] }) => rules(r.rules, 'No rules.'),
  'rules.resolve': (r: {
    agent: string | null;
    project: string | null;
    space: string;
    rules: ResolvedRule[];
  }) => {
    const head = `space ${r.space}${r.agent ? `, agent ${r.agent}` : ''}${r.project ? `, project ${r.project}` : ''}`;
    return r.rules.length ? `${head}\n${rules(r.rules, '')}` : `${head}: no rules apply.`;
  },
};

const toolName = (op: Operation) => op.name.replace('.', '_');

/** Register every catalogue operation offered over MCP as a tool. */
export function registerCatalogTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const cwd = process.cwd();
  for (const op of CATALOG) {
    if (op.mcp === false) continue;
    const destructive = op.effect === 'destructive';
    const name = toolName(op);
    server.registerTool(
      name,
      {
        title: op.summary,
        description: destructive ? `${op.description} Needs confirm: true.` : op.description,
        inputSchema: destructive ? { ...op.input.shape, confirm: z.boolean().optional() } : op.input.shape,
        outputSchema: op.output.shape,
        annotations: ANNOTATIONS[op.effect],
      },
      guard(async ({ confirm, ...input }: Record<string, unknown>): Promise<CallToolResult> => {
        if (destructive && confirm !== true)
          return {
            isError: true,
            content: [
              {
                type: 'text',
                text: `${name} cannot be undone; call again with confirm: true if that is intended.`,
              },
            ],
          };
        const out = await runOp(op, engine, input, { cwd });
        const text = TEXT[op.name]?.(out as never) ?? JSON.stringify(out);
        return { content: [{ type: 'text', text }], structuredContent: out };
      }),
    );
  }
}

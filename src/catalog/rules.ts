/**
 * Standing rules as catalogue operations: add, list, resolve (what applies here, in order), get,
 * update, remove. The schemas here are the one declaration of a rule's fields at the edge: HTTP
 * bodies and queries, OpenAPI, MCP input and output schemas and the CLI's options come from them.
 */
import { z } from 'zod';
import { invalidInput } from '../core/errors.js';
import { defineOp } from './define.js';

const SCOPE = 'global (default), agent:<id>, project:<absolute path> or space:<name>';

/** A stored rule, as every interface returns it. */
export const RuleSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string(),
  scope: z.string(),
  enabled: z.boolean(),
  priority: z.number(),
  note: z.string().nullable(),
  owner: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The fields a caller sets (all optional here; `add` requires the body). */
const body = z.string().min(1).max(10_000).describe('The instruction');
const fields = {
  body: body.optional(),
  title: z.string().max(200).optional().describe('One line (default: the start of the body)'),
  scope: z.string().max(4200).optional().describe(SCOPE),
  priority: z.number().int().min(-1000).max(1000).optional().describe('Higher applies first (default 0)'),
  enabled: z.boolean().optional().describe('Switched on (default true)'),
  note: z
    .string()
    .max(1000)
    .nullable()
    .optional()
    .describe('Why the rule exists or where it came from ("" clears it)'),
  owner: z.string().max(200).nullable().optional().describe('Who to ask about it: a person or a team'),
};

const id = z.string().min(1).max(200).describe('Rule id, or an id prefix of 8+ characters');
const space = z.string().min(1).max(64).describe('Space (default: the current one)');

export const rulesAdd = defineOp({
  name: 'rules.add',
  summary: 'Add a standing rule',
  description: 'Save an instruction the user wants followed every time (e.g. "use pnpm, never npm").',
  input: z.strictObject({ ...fields, body }),
  output: RuleSchema,
  effect: 'write',
  need: 'write',
  http: { method: 'post', path: '/v1/rules', status: 201 },
  handler: (s, input) => s.rules.add(input),
});

export const rulesList = defineOp({
  name: 'rules.list',
  summary: 'Rules in the order they apply',
  description: 'List standing rules with ids, scopes and priorities, to review or edit them.',
  input: z.object({
    scope: z.string().max(4200).optional().describe(`Only this exact scope: ${SCOPE}`),
    space: space.optional(),
    all_spaces: z.boolean().optional().describe('Space-scoped rules of every space (the caller sees)'),
  }),
  output: z.object({ rules: z.array(RuleSchema) }),
  effect: 'read',
  need: 'read',
  http: { method: 'get', path: '/v1/rules' },
  handler(s, { all_spaces, ...input }, { cwd }) {
    if (input.space && all_spaces) throw invalidInput('Give either space or all_spaces, not both');
    return s.rules.list({ ...input, allSpaces: all_spaces, cwd });
  },
});

export const rulesResolve = defineOp({
  name: 'rules.resolve',
  summary: 'The enabled rules for an agent, project and space, in order',
  description:
    'The standing rules to follow now, in order, for this agent, project and space. Call at the start of a task when no context bundle was given.',
  input: z.object({
    agent: z.string().max(40).optional().describe('antigravity, claude-code, codex or gemini-cli'),
    project: z.string().max(4096).optional().describe('Absolute project directory'),
    space: space.optional(),
  }),
  output: z.object({
    agent: z.string().nullable(),
    project: z.string().nullable(),
    space: z.string(),
    rules: z.array(RuleSchema.extend({ reason: z.string() })),
  }),
  effect: 'read',
  need: 'read',
  http: { method: 'get', path: '/v1/rules/resolve' },
  handler: (s, input, { cwd }) => s.rules.resolve({ ...input, cwd }),
});

export const rulesGet = defineOp({
  name: 'rules.get',
  summary: 'One rule',
  description: 'One rule by id.',
  input: z.object({ id }),
  output: RuleSchema,
  effect: 'read',
  need: 'read',
  http: { method: 'get', path: '/v1/rules/:id' },
  // rules_list already shows whole rules: one more tool would cost every full-set session.
  mcp: false,
  handler: (s, input) => s.rules.get(input.id),
});

export const rulesUpdate = defineOp({
  name: 'rules.update',
  summary: 'Change a rule',
  description: 'Change a rule’s body, title, scope, priority or note, or switch it on/off.',
  input: z.strictObject({ id, ...fields }),
  output: RuleSchema,
  effect: 'idempotent-write',
  need: 'write',
  http: { method: 'patch', path: '/v1/rules/:id' },
  handler: (s, { id, ...patch }) => s.rules.update(id, patch),
});

export const rulesRemove = defineOp({
  name: 'rules.remove',
  summary: 'Remove a rule',
  description: 'Delete a rule for good (rules_update enabled: false only switches it off).',
  input: z.object({ id }),
  output: z.object({ id: z.string(), removed: z.literal(true) }),
  effect: 'destructive',
  need: 'write',
  http: { method: 'delete', path: '/v1/rules/:id' },
  handler: (s, input) => s.rules.remove(input.id),
});

/** Every rules operation, in the order interfaces list them. */
export const RULE_OPS = [rulesAdd, rulesList, rulesResolve, rulesGet, rulesUpdate, rulesRemove] as const;

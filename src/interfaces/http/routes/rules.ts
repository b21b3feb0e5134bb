/** Standing rules: add, list, resolve (what applies here, in order), read, change, remove. */
import { z } from 'zod';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qBool, spaceField } from './schemas.js';

const fields = {
  title: z.string().max(200).optional(),
  scope: z
    .string()
    .max(4200)
    .optional()
    .describe('global (default), agent:<id>, project:<absolute path>, space:<name>'),
  priority: z.number().int().min(-1000).max(1000).optional().describe('Higher applies first (default 0)'),
  enabled: z.boolean().optional(),
  note: z.string().max(1000).nullable().optional().describe('Why the rule exists or where it came from'),
};

export const RuleAddBody = z.strictObject({
  body: z.string().min(1).max(10_000).describe('The instruction'),
  ...fields,
});
export const RulePatchBody = z.strictObject({ body: z.string().min(1).max(10_000).optional(), ...fields });

export const RuleListQuery = z.object({
  scope: z.string().max(4200).optional().describe('Only this exact scope'),
  space: spaceField.optional(),
  all_spaces: qBool('Space-scoped rules of every space (the caller sees)'),
});

export const RuleResolveQuery = z.object({
  agent: z.string().max(40).optional(),
  project: z.string().max(4096).optional().describe('Absolute project directory'),
  space: spaceField.optional(),
});

const IdParams = z.object({ id: z.string().min(1).max(200) });

export function registerRuleRoutes({ app, registry }: RoutesContext): void {
  const tag = 'rules';
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/rules',
    tag,
    summary: 'Add a standing rule',
    body: RuleAddBody,
    status: 201,
    handler: ({ engine, body }) => engine.rules.add(body),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/rules',
    tag,
    summary: 'Rules in the order they apply',
    query: RuleListQuery,
    returns: '{rules}',
    handler: ({ engine, query: { all_spaces, ...q } }) => engine.rules.list({ ...q, allSpaces: all_spaces }),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/rules/resolve',
    tag,
    summary: 'The enabled rules for an agent, project and space, in order',
    query: RuleResolveQuery,
    returns: '{agent, project, space, rules}',
    handler: ({ engine, query }) => engine.rules.resolve(query),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/rules/:id',
    tag,
    summary: 'One rule',
    params: IdParams,
    handler: ({ engine, params }) => engine.rules.get(params.id),
  });
  addRoute(app, registry, {
    method: 'patch',
    path: '/v1/rules/:id',
    tag,
    summary: 'Change a rule',
    params: IdParams,
    body: RulePatchBody,
    handler: ({ engine, params, body }) => engine.rules.update(params.id, body),
  });
  addRoute(app, registry, {
    method: 'delete',
    path: '/v1/rules/:id',
    tag,
    summary: 'Remove a rule',
    params: IdParams,
    handler: ({ engine, params }) => engine.rules.remove(params.id),
  });
}

/**
 * Skills: list, find, index, read (JSON or SKILL.md), add, propose, update, stage, proposals,
 * evidence, tests, checks and outcomes. Install, import and export name folders on the server,
 * so they stay on the CLI.
 */
import { z } from 'zod';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qBool, qInt, spaceField } from './schemas.js';

const space = spaceField.optional();
const note = z.string().max(2000).optional().describe('Why (kept with the record)');
const Name = z.object({ name: z.string().min(1).max(64).describe('Skill name (kebab-case)') });
const NameProposal = Name.extend({ proposal: z.string().min(1).max(200) });
const NameTest = Name.extend({ test: z.string().min(1).max(120) });
const SpaceQuery = z.object({ space });

const document = {
  content: z.string().max(200_000).optional().describe('A whole SKILL.md (front matter + body)'),
  name: z.string().max(64).optional(),
  description: z.string().max(1024).optional(),
  body: z.string().max(200_000).optional(),
  note,
  space,
};

export const SkillAddBody = z.strictObject({
  ...document,
  stage: z.enum(['draft', 'active', 'archived']).optional(),
});
export const SkillProposeBody = z.strictObject(document);
export const SkillUpdateBody = z.strictObject({ ...document, name: z.undefined().optional() });
export const SkillStageBody = z.strictObject({ stage: z.enum(['draft', 'active', 'archived']), space });
export const SkillEvidenceBody = z.strictObject({
  uris: z
    .array(z.string().max(500))
    .min(1)
    .max(100)
    .describe('tapedeck://thread/<id>#<step>, tapedeck://memory/<id> or URLs'),
  note,
  space,
});
export const SkillTestBody = z.strictObject({
  check: z.string().min(1).max(2000).describe('What to check'),
  space,
});
export const SkillCheckBody = z.strictObject({
  test: z.string().min(1).max(120),
  result: z.enum(['passed', 'failed']),
  check: z.string().max(2000).optional(),
  version: z.number().int().min(1).optional(),
  note,
  space,
});
export const SkillOutcomeBody = z.strictObject({
  outcome: z.enum(['completed', 'completed_with_deviation', 'failed', 'abandoned']),
  version: z.number().int().min(1).optional(),
  note,
  space,
});

export function registerSkillRoutes({ app, registry }: RoutesContext): void {
  const tag = 'skills';

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/skills',
    tag,
    summary: 'Skills of a space by name',
    query: z.object({
      stage: z.enum(['draft', 'active', 'archived']).optional(),
      include_archived: qBool(),
      space,
    }),
    returns: '{skills}',
    handler: ({ engine, query: { include_archived, ...q } }) => ({
      skills: engine.skills.list({ ...q, includeArchived: include_archived }),
    }),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/skills/find',
    tag,
    summary: 'Skills for a task, best first',
    query: z.object({
      task: z.string().min(1).max(2000),
      limit: qInt(1, 50),
      include_archived: qBool(),
      space,
    }),
    handler: ({ engine, query: { task, include_archived, ...q } }) =>
      engine.skills.find(task, { ...q, includeArchived: include_archived }),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/skills/index',
    tag,
    summary: 'Active skills, one line each, most trusted first',
    query: SpaceQuery,
    returns: '{skills}',
    handler: ({ engine, query }) => ({ skills: engine.skills.index(query) }),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills',
    tag,
    summary: 'Create a skill from a SKILL.md or fields (CONFLICT when the name is taken)',
    body: SkillAddBody,
    status: 201,
    handler: ({ engine, body }) => engine.skills.add(body),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/propose',
    tag,
    summary: "An agent's proposal: a new skill as a draft, or a pending change to an existing one",
    body: SkillProposeBody,
    status: 201,
    handler: ({ engine, body }) => engine.skills.propose(body),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/skills/:name',
    tag,
    summary: 'One skill with its body, record and trust badge',
    params: Name,
    query: z.object({ version: qInt(1, 1_000_000), space }),
    handler: ({ engine, params, query }) => engine.skills.show(params.name, query),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/skills/:name/skill.md',
    tag,
    summary: 'The SKILL.md text of a version, as stored (text/markdown)',
    params: Name,
    query: z.object({ version: qInt(1, 1_000_000), space }),
    returns: 'text/markdown',
    handler: ({ c, engine, params, query }) =>
      c.body(engine.skills.render(params.name, query), 200, {
        'content-type': 'text/markdown; charset=utf-8',
      }),
  });
  addRoute(app, registry, {
    method: 'patch',
    path: '/v1/skills/:name',
    tag,
    summary: "Change a skill's SKILL.md, description or body (a new version unless nothing changed)",
    params: Name,
    body: SkillUpdateBody,
    handler: ({ engine, params, body: { name: _n, ...body } }) => engine.skills.update(params.name, body),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/:name/stage',
    tag,
    summary: 'Set the stage: draft, active or archived',
    params: Name,
    body: SkillStageBody,
    handler: ({ engine, params, body }) =>
      engine.skills.setStage(params.name, body.stage, { space: body.space }),
  });
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/skills/:name/proposals',
    tag,
    summary: 'Pending (or all) proposals of a skill',
    params: Name,
    query: z.object({ all: qBool(), space }),
    handler: ({ engine, params, query }) => engine.skills.proposals(params.name, query),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/:name/proposals/:proposal/accept',
    tag,
    summary: 'Apply a pending proposal as the next version',
    params: NameProposal,
    body: z.strictObject({ force: z.boolean().optional(), space }),
    bodyOptional: true,
    handler: ({ engine, params, body }) => engine.skills.accept(params.name, params.proposal, body),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/:name/proposals/:proposal/reject',
    tag,
    summary: 'Reject a pending proposal',
    params: NameProposal,
    body: z.strictObject({ space }),
    bodyOptional: true,
    handler: ({ engine, params, body }) => engine.skills.reject(params.name, params.proposal, body),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/:name/evidence',
    tag,
    summary: 'Attach evidence links (all checked first)',
    params: Name,
    body: SkillEvidenceBody,
    handler: ({ engine, params, body: { uris, ...o } }) => engine.skills.addEvidence(params.name, uris, o),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/:name/evidence/remove',
    tag,
    summary: 'Detach evidence links',
    params: Name,
    body: SkillEvidenceBody.omit({ note: true }),
    handler: ({ engine, params, body: { uris, ...o } }) => engine.skills.removeEvidence(params.name, uris, o),
  });
  addRoute(app, registry, {
    method: 'put',
    path: '/v1/skills/:name/tests/:test',
    tag,
    summary: 'Define (or redefine) a test case',
    params: NameTest,
    body: SkillTestBody,
    handler: ({ engine, params, body }) =>
      engine.skills.defineTest(params.name, params.test, body.check, { space: body.space }),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/:name/checks',
    tag,
    summary: 'Record a check result for a test case',
    params: Name,
    body: SkillCheckBody,
    status: 201,
    handler: ({ engine, params, body: { test, result, ...o } }) =>
      engine.skills.recordCheck(params.name, test, result, o),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/skills/:name/outcomes',
    tag,
    summary: 'Report how using the skill went',
    params: Name,
    body: SkillOutcomeBody,
    status: 201,
    handler: ({ engine, params, body: { outcome, ...o } }) =>
      engine.skills.recordOutcome(params.name, outcome, o),
  });
}

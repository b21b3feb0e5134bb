/** Working memory (the daily briefing) and the context bundle (one startup payload for a session). */
import { z } from 'zod';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qBool, qInt, spaceField } from './schemas.js';

const date = z.string().max(20).optional().describe('YYYY-MM-DD, today (default) or yesterday');
const space = spaceField.optional();

export const WmRefreshBody = z.strictObject({
  date,
  space,
  reset: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe("Drop a person's edits of these sections (all for every one)"),
});
export const WmEditBody = z.strictObject({
  date,
  space,
  section: z
    .string()
    .max(100)
    .optional()
    .describe('The section to replace; none: text is a whole briefing in Markdown'),
  text: z.string().max(200_000),
});

export function registerWorkingMemoryRoutes({ app, registry }: RoutesContext): void {
  const tag = 'working memory';
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/working-memory',
    tag,
    summary: "Today's (or date's) briefing, regenerated first when stale",
    query: z.object({ date, space, regenerate: qBool('Regenerate when stale (default true)') }),
    handler: ({ engine, query }) => engine.workingMemory.read(query),
  });
  addRoute(app, registry, {
    method: 'post',
    path: '/v1/working-memory/refresh',
    tag,
    summary: 'Regenerate the briefing now',
    body: WmRefreshBody,
    bodyOptional: true,
    handler: ({ engine, body }) => engine.workingMemory.refresh(body),
  });
  addRoute(app, registry, {
    method: 'put',
    path: '/v1/working-memory',
    tag,
    summary: "A person's edit of one section, or of the whole briefing in Markdown",
    body: WmEditBody,
    handler: ({ engine, body }) => engine.workingMemory.edit(body),
  });
}

export function registerContextRoutes({ app, registry }: RoutesContext): void {
  addRoute(app, registry, {
    method: 'get',
    path: '/v1/context',
    tag: 'context',
    summary: 'The context bundle: rules, working memory, relevant memories and skills within a token budget',
    query: z.object({
      agent: z.string().max(40).optional(),
      project: z.string().max(4096).optional().describe('Absolute project directory'),
      space,
      budget: qInt(100, 100_000, 'Tokens (default 1500)'),
    }),
    returns: '{markdown, tokens, budget, agent, project, space, date, items, omitted}',
    handler: ({ engine, query }) => engine.contextBundle.build(query),
  });
}

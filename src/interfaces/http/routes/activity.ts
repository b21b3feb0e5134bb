/**
 * What the web page needs beyond the transcript routes: sessions per day for the timeline, and
 * one status document (doctor's checks, parse issues with file:line, index freshness, the
 * transcript archive's size and Claude Code's retention for the owner, the hook queue when the
 * server was given a way to read it).
 */
import { z } from 'zod';
import { retentionReport } from '../../../app/retention.js';
import type { RoutesContext } from '../context.js';
import { addRoute } from '../route.js';
import { qInt, qList } from './schemas.js';

export const TimelineQuery = z.object({
  agent: qList('Only these agents (repeat or comma-separate)'),
  project: z.string().max(4096).optional().describe('Only sessions in this directory or below it'),
  since: z.string().max(64).optional().describe('From this date: YYYY-MM-DD, ISO time, or a span like 30d'),
  until: z.string().max(64).optional().describe('Up to this date (inclusive)'),
  utc_offset: z.coerce
    .number()
    .int()
    .min(-840)
    .max(840)
    .optional()
    .describe(
      'Cut days at midnight this many minutes east of UTC (default 0; a browser sends -getTimezoneOffset())',
    ),
});

export const DoctorQuery = z.object({
  issues: qInt(1, 500, 'Most recent parse issues to list (default 50)'),
});

export interface ActivityOptions {
  /** The hook queue's state on the server's machine (waiting, retrying, failed, …); absent: not reported. */
  queueState?: () => unknown;
}

export function registerActivityRoutes(ctx: RoutesContext, { queueState }: ActivityOptions = {}): void {
  const { app, registry } = ctx;

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/timeline',
    tag: 'transcripts',
    summary: 'Sessions per day (a session counts on each day it was active), by agent and project',
    description:
      "A day's sessions are `GET /v1/threads?since=<day start>&until=<day end>` (the same overlap rule).",
    query: TimelineQuery,
    returns: '{days: [{date, sessions, agents: {agent: n}, projects: {path: n}}], sessions, utc_offset}',
    handler({ engine, query: { utc_offset, ...filters } }) {
      ctx.fresh();
      return engine.transcripts.timeline({ ...filters, utcOffsetMinutes: utc_offset });
    },
  });

  addRoute(app, registry, {
    method: 'get',
    path: '/v1/doctor',
    tag: 'transcripts',
    summary:
      'Health of the index: database checks, parse issues with file and line, counts, queue (`tapedeck doctor --json`)',
    query: DoctorQuery,
    returns:
      '{ok, problems, issues: {total, recent: [{path, line, message, at}]}, stats, index: {last_indexed_at}, archive: {enabled, dir, files, bytes, originalBytes}, retention: {cleanupPeriodDays, configured, settings, sessions, dueWithin7Days, archived, notArchived, problem?}, queue}; archive and retention: null for API keys',
    handler({ engine, access, query }) {
      const { problems, issues, stats } = engine.transcripts.health(query.issues ?? 50);
      // The archive and Claude Code's cleanup are about this machine's files: the owner's view only.
      const owner = access.principal === 'local';
      const archive = owner
        ? engine.archive
          ? { enabled: true, ...engine.archive.stats() }
          : { enabled: false }
        : null;
      let retention: unknown = null;
      if (owner)
        try {
          retention = retentionReport(engine);
        } catch (e) {
          retention = { problem: (e as Error).message };
        }
      let queue: unknown = null;
      try {
        queue = queueState?.() ?? null;
      } catch (e) {
        queue = { error: (e as Error).message };
      }
      const { lastIndexAt } = ctx.state;
      return {
        ok: problems.length === 0,
        problems,
        issues: { total: stats.issues, recent: issues },
        stats,
        index: { last_indexed_at: lastIndexAt ? new Date(lastIndexAt).toISOString() : null },
        archive,
        retention,
        queue,
      };
    },
  });
}

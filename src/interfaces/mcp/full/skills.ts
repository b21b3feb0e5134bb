/** MCP tools for skills: find, load, list, propose, report outcomes and checks, manage (no deletes). */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import { SKILL_OUTCOMES, SKILL_STAGES } from '../../../core/skill.js';
import { READ, WRITE } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';

const space = z.string().optional().describe('Space (default: the configured one)');
const name = z.string().min(1).max(64).describe('Skill name (kebab-case)');
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

export function registerSkillsTools(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { skills } = engine;

  server.registerTool(
    'skills_find',
    {
      title: 'Find skills for a task',
      description:
        'Before starting a multi-step task, find saved skills (proven procedures) that fit it. Returns name, badge (Draft/Checked/Proven) and one line each; load one with skills_load.',
      inputSchema: {
        task: z.string().min(1).max(2000).describe('What you are about to do'),
        limit: z.number().int().min(1).max(20).optional().describe('How many (default 5)'),
        include_archived: z.boolean().optional(),
        space,
      },
      annotations: { title: 'Find skills for a task', ...READ },
    },
    guard(({ task, limit, include_archived, space }) => {
      const r = skills.find(task, { space, limit, includeArchived: include_archived });
      const lines = r.hits.map(
        (h) => `${h.name} [${h.badge}]${h.stage === 'active' ? '' : ` (${h.stage})`} — ${h.description}`,
      );
      return {
        ...text(lines.length ? lines.join('\n') : 'No skill fits this task.'),
        structuredContent: { hits: r.hits.map(({ name, badge, stage }) => ({ name, badge, stage })) },
      };
    }),
  );

  server.registerTool(
    'skills_load',
    {
      title: 'Load a skill',
      description:
        "Load a skill's instructions (its SKILL.md body) to follow them. Afterwards report how it went with skills_outcome.",
      inputSchema: {
        name,
        version: z.number().int().min(1).optional().describe('An earlier version'),
        space,
      },
      annotations: { title: 'Load a skill', ...READ },
    },
    guard(({ name, version, space }) => {
      const d = skills.show(name, { space, version });
      const head = `${d.name} v${d.shown_version} [${d.badge}] ${d.stage} — ${d.description}`;
      return text(`${head}\n\n${d.body.replace(/^\r?\n/, '')}`);
    }),
  );

  server.registerTool(
    'skills_list',
    {
      title: 'List skills',
      description: 'List saved skills with stage, version and badge, one line each.',
      inputSchema: {
        stage: z.enum(SKILL_STAGES).optional().describe('Only this stage'),
        include_archived: z.boolean().optional(),
        space,
      },
      annotations: { title: 'List skills', ...READ },
    },
    guard(({ stage, include_archived, space }) => {
      const list = skills.list({ space, stage, includeArchived: include_archived });
      return text(
        list.length
          ? list.map((s) => `${s.name} [${s.badge}] ${s.stage} v${s.version} — ${s.description}`).join('\n')
          : 'No skills.',
      );
    }),
  );

  server.registerTool(
    'skills_propose',
    {
      title: 'Propose a skill',
      description:
        'After working out a reusable procedure, save it as a skill: a new name becomes a draft; for an existing name the change waits as a proposal a person accepts. Give content (a whole SKILL.md) or name + description + body.',
      inputSchema: {
        content: z
          .string()
          .max(262144)
          .optional()
          .describe('A whole SKILL.md (front matter name, description; Markdown body)'),
        name: name.optional(),
        description: z.string().max(1024).optional().describe('One line: when to use it'),
        body: z.string().max(262144).optional().describe('The instructions (Markdown)'),
        note: z.string().max(2000).optional().describe('Why (for an improvement: what changed)'),
        space,
      },
      annotations: { title: 'Propose a skill', ...WRITE },
    },
    guard((args) => {
      const r = skills.propose(args);
      return {
        ...text(
          r.status === 'created'
            ? `Created draft skill ${r.name} v1.`
            : `Proposal ${r.proposal} saved for ${r.name} (on v${r.version}); a person accepts it with tapedeck skills accept.`,
        ),
        structuredContent: r,
      };
    }),
  );

  server.registerTool(
    'skills_outcome',
    {
      title: 'Report a skill outcome or check',
      description:
        'After using a skill, report how it went (outcome: completed, completed_with_deviation, failed, abandoned), or record a test check (test + result). This builds its trust badge.',
      inputSchema: {
        name,
        outcome: z.enum(SKILL_OUTCOMES).optional(),
        test: z.string().max(120).optional().describe('Test case name (created on first use)'),
        result: z.enum(['passed', 'failed']).optional().describe('With test'),
        check: z.string().max(2000).optional().describe('With a new test: what it checks'),
        note: z.string().max(2000).optional().describe('What happened, what deviated'),
        version: z.number().int().min(1).optional().describe('Version used (default current)'),
        space,
      },
      annotations: { title: 'Report a skill outcome or check', ...WRITE },
    },
    guard(({ name, outcome, test, result, check, note, version, space }) => {
      if (!!outcome === !!(test || result)) throw invalidInput('Give either outcome, or test and result');
      if (outcome) {
        const r = skills.recordOutcome(name, outcome, { space, note, version });
        return text(`${r.name} v${r.version}: ${r.outcome} recorded; badge ${r.badge}.`);
      }
      if (!test || !result) throw invalidInput('A check needs both test and result');
      const r = skills.recordCheck(name, test, result, { space, note, version, check });
      return text(`${r.name} v${r.version}: test "${r.test}" ${r.result}; badge ${r.badge}.`);
    }),
  );

  server.registerTool(
    'skills_manage',
    {
      title: 'Manage a skill',
      description:
        'Change a skill without deleting anything: set_stage (draft/active/archived), add_evidence (tapedeck://memory/<id> or tapedeck://thread/<id>#<step> links that back it), define_test (test + check).',
      inputSchema: {
        name,
        action: z.enum(['set_stage', 'add_evidence', 'define_test']),
        stage: z.enum(SKILL_STAGES).optional().describe('For set_stage'),
        evidence: z.array(z.string().max(400)).max(50).optional().describe('For add_evidence'),
        test: z.string().max(120).optional().describe('For define_test'),
        check: z.string().max(2000).optional().describe('For define_test: what to check'),
        note: z.string().max(2000).optional(),
        space,
      },
      annotations: { title: 'Manage a skill', ...WRITE },
    },
    guard(({ name, action, stage, evidence, test, check, note, space }) => {
      if (action === 'set_stage') {
        if (!stage) throw invalidInput('set_stage needs stage');
        const r = skills.setStage(name, stage, { space });
        return text(`${r.name}: ${r.previous_stage} → ${r.stage}; badge ${r.badge}.`);
      }
      if (action === 'add_evidence') {
        const r = skills.addEvidence(name, evidence ?? [], { space, note });
        return text(
          `${r.name}: ${r.added.length} link(s) added, ${r.already.length} already there; badge ${r.badge}.`,
        );
      }
      if (!test || !check) throw invalidInput('define_test needs test and check');
      const r = skills.defineTest(name, test, check, { space });
      return text(`${r.name}: test "${r.test}" ${r.created ? 'defined' : 'updated'}.`);
    }),
  );
}

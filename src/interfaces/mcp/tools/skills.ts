/**
 * `skills`: procedures that worked before. find (by the task in plain words), load (the
 * instructions), outcome (how it went: builds the trust badge), propose (a new skill starts as a
 * draft; a change to an existing one waits for a person). Nothing is deleted here.
 */
import { z } from 'zod';
import type { Engine } from '../../../app/engine.js';
import { invalidInput } from '../../../core/errors.js';
import { SKILL_OUTCOMES } from '../../../core/skill.js';
import { LEAN_WRITE } from '../annotations.js';
import type { Guard } from '../server.js';
import type { ToolRegistrar } from '../tool-list.js';
import { reply, str } from './shared.js';

export function registerSkillsTool(server: ToolRegistrar, engine: Engine, guard: Guard): void {
  const { skills } = engine;
  server.registerTool(
    'skills',
    {
      description:
        'Proven procedures. Before a multi-step task: find (task), load (name), follow it, then outcome (name, outcome). propose (content: a SKILL.md) saves a new one.',
      inputSchema: {
        action: z.enum(['find', 'load', 'outcome', 'propose']),
        task: str(2000).optional(),
        name: str(64).optional(),
        outcome: z.enum(SKILL_OUTCOMES).optional(),
        content: str(262_144).optional(),
        note: str(2000).optional(),
      },
      outputSchema: { names: z.array(z.string()) },
      annotations: LEAN_WRITE,
    },
    guard(({ action, task, name, outcome, content, note }) => {
      const need = <T>(v: T | undefined, what: string): T => {
        if (v === undefined || v === '') throw invalidInput(`${action} needs ${what}`);
        return v;
      };
      switch (action) {
        case 'find': {
          const r = skills.find(need(task, 'task'), { limit: 5 });
          const lines = r.hits.map(
            (h) => `${h.name} [${h.badge}]${h.stage === 'active' ? '' : ` (${h.stage})`} — ${h.description}`,
          );
          return reply(lines.length ? lines.join('\n') : 'No skill fits this task.', {
            names: r.hits.map((h) => h.name),
          });
        }
        case 'load': {
          const d = skills.show(need(name, 'name'));
          const head = `${d.name} v${d.shown_version} [${d.badge}] ${d.stage} — ${d.description}`;
          return reply(`${head}\n\n${d.body.replace(/^\r?\n/, '')}`, { names: [d.name] });
        }
        case 'outcome': {
          const r = skills.recordOutcome(need(name, 'name'), need(outcome, 'outcome'), { note });
          return reply(`${r.name} v${r.version}: ${r.outcome} recorded; badge ${r.badge}.`, {
            names: [r.name],
          });
        }
        case 'propose': {
          const r = skills.propose({ content: need(content, 'content (a SKILL.md)'), note });
          return reply(
            r.status === 'created'
              ? `Created draft skill ${r.name} v1.`
              : `Proposal ${r.proposal} saved for ${r.name} (on v${r.version}); a person accepts it with tapedeck skills accept.`,
            { names: [r.name] },
          );
        }
      }
    }),
  );
}

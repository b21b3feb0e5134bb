/**
 * The context bundle: one startup payload for an agent session (the rules that apply, today's
 * working memory, the memories most relevant to the project, an index of skills) that never
 * exceeds a token budget, says what it left out and why each item is in it.
 *
 * Allocation (docs/context.md): rules first, whole and in order; a rule that does not fit is
 * reported, never cut. What is left is shared in a first pass (working memory 45%, memories 35%,
 * skills 20%) so a long briefing cannot crowd out the rest, then any space still free goes to
 * working memory, memories and skills in that order. Items are never cut mid-way.
 */
import { invalidInput } from '../core/errors.js';
import { memoryLink } from '../core/memory.js';
import { isAbsolutePath, isUnder, normalizeProjectPath } from '../core/paths.js';
import {
  estimateTokens,
  type PackItem,
  type PackLayout,
  pack,
  type TokenCounter,
} from '../core/token-budget.js';
import { AGENT_IDS, isAgentId } from '../core/types.js';
import { oneLine, renderItem, WM_HEADINGS } from '../core/working-memory.js';
import type { ContextBundleStore, MemoryPick } from '../ports/context-bundle-store.js';
import type { RuleService } from './rules.js';
import type { SkillsService } from './skills/service.js';
import type { SpaceService } from './spaces.js';
import type { WorkingMemoryService } from './working-memory/service.js';

export const DEFAULT_BUDGET = 1500;
export const MIN_BUDGET = 100;
export const MAX_BUDGET = 100_000;
/**
 * Memories weighed, per scope (the project, and space-wide ones without a project): the 50 most
 * recent, and the 50 most important among the 1,000 most recent. Bounded whatever the store size.
 */
const PICK = 50;
const PICK_WINDOW = 1000;
/** At most this many memories are candidates (the best by score); the rest are not "left out". */
const MEMORY_CANDIDATES = 25;
const SHARES = { 1: 0.45, 2: 0.35, 3: 0.2 };
const HALF_LIFE_DAYS = 14;

export type BundleKind = 'rule' | 'working_memory' | 'memory' | 'skill';

export interface BundleInput {
  agent?: string;
  /** Absolute project directory. */
  project?: string;
  space?: string;
  cwd?: string;
  /** Tokens, 100–100,000 (default 1,500). */
  budget?: number | string;
  /** An exact tokenizer; default ceil(characters / 4). */
  countTokens?: TokenCounter;
}

export interface BundleItem {
  kind: BundleKind;
  id: string;
  title: string;
  /** Why it is in the bundle. */
  reason: string;
  link: string;
  tokens: number;
}

export interface BundleOmission {
  kind: BundleKind;
  id: string;
  title: string;
  reason: string;
  link: string;
}

export interface ContextBundle {
  markdown: string;
  tokens: number;
  budget: number;
  agent: string | null;
  project: string | null;
  space: string;
  date: string;
  items: BundleItem[];
  omitted: BundleOmission[];
}

export interface ContextBundleService {
  build(input?: BundleInput): Promise<ContextBundle>;
}

export interface ContextBundleDeps {
  rules: Pick<RuleService, 'resolve'>;
  /** Bounded candidate reads (the memory service has no project-indexed listing). */
  store: ContextBundleStore;
  skills: Pick<SkillsService, 'index'>;
  workingMemory: Pick<WorkingMemoryService, 'read'>;
  spaces: SpaceService;
  countTokens?: TokenCounter;
  now?: () => number;
}

interface Candidate extends PackItem {
  kind: BundleKind;
  id: string;
  title: string;
  reason: string;
  link: string;
}

export function cleanBudget(budget: unknown): number {
  if (budget === undefined || budget === null || budget === '') return DEFAULT_BUDGET;
  const n = typeof budget === 'number' ? budget : Number(String(budget).trim().replace(/[,_]/g, ''));
  if (!Number.isInteger(n) || n < MIN_BUDGET || n > MAX_BUDGET)
    throw invalidInput(`The budget must be a whole number of tokens from 100 to 100,000, got "${budget}"`);
  return n;
}

const indent = (text: string) => text.replace(/\n/g, '\n  ');
const fmt = (n: number) => n.toLocaleString('en-US');
const LABEL: Record<BundleKind, [string, string]> = {
  rule: ['rule', 'rules'],
  working_memory: ['working-memory line', 'working-memory lines'],
  memory: ['memory', 'memories'],
  skill: ['skill', 'skills'],
};

export function createContextBundleService(deps: ContextBundleDeps): ContextBundleService {
  const { rules, store, skills, workingMemory, spaces, now = Date.now } = deps;

  /** Project match first (then space-wide ones), importance, recency (half-life 14 days). */
  async function relevantMemories(space: string, project: string | null, exclude: Set<string>) {
    const t = now();
    const pool: MemoryPick[] = project
      ? (
          await Promise.all([
            store.pickMemories(space, { project }, PICK, PICK_WINDOW),
            store.pickMemories(space, { project: null }, PICK, PICK_WINDOW),
          ])
        ).flat()
      : await store.pickMemories(space, 'all', PICK, PICK_WINDOW);
    const scored = pool
      .filter((m) => !exclude.has(memoryLink(m.id)))
      .map((m) => {
        const match = project && m.project ? 1 : project ? 0.6 : m.project ? 0.6 : 1;
        const ageDays = Math.max(0, (t - Date.parse(m.updated_at)) / 86_400_000);
        const recency = 0.5 ** (ageDays / HALF_LIFE_DAYS);
        return { m, match, score: 0.5 * match + 0.3 * m.importance + 0.2 * recency };
      })
      .sort(
        (a, b) =>
          b.score - a.score || (a.m.updated_at < b.m.updated_at ? 1 : -1) || (a.m.id < b.m.id ? -1 : 1),
      );
    return scored.slice(0, MEMORY_CANDIDATES);
  }

  return {
    async build(input = {}) {
      const budget = cleanBudget(input.budget);
      const agent = input.agent?.trim() || undefined;
      if (agent && !isAgentId(agent))
        throw invalidInput(`Unknown agent "${agent}"; known: ${AGENT_IDS.join(', ')}`);
      let project: string | null = null;
      if (input.project?.trim()) {
        if (!isAbsolutePath(input.project.trim()))
          throw invalidInput(`The project must be an absolute directory, got "${input.project}"`);
        project = normalizeProjectPath(input.project);
      }
      const space = spaces.resolve({ space: input.space, project: project ?? undefined, cwd: input.cwd });
      const count = input.countTokens ?? deps.countTokens ?? estimateTokens;

      const candidates: Candidate[] = [];
      for (const r of (await rules.resolve({ agent, project: project ?? undefined, space })).rules) {
        const derived = r.body.startsWith(r.title.replace(/…$/, ''));
        candidates.push({
          tier: 0,
          headers: ['rules'],
          text: `- ${indent(derived ? r.body : `**${r.title}**: ${r.body}`)}\n`,
          kind: 'rule',
          id: r.id,
          title: r.title,
          reason: `applies: ${r.reason}${r.priority ? `, priority ${r.priority}` : ''}`,
          link: `tapedeck://rule/${r.id}`,
        });
      }

      const wm = await workingMemory.read({ space });
      const inBriefing = new Set<string>();
      // A project's bundle leaves out the briefing's lines about other projects (the briefing
      // covers the whole space); lines about no one project, and a person's edits, stay.
      const elsewhere = (p: string | null | undefined) =>
        !!project && !!p && !isUnder(p, project) && !isUnder(project, p);
      for (const s of wm.sections) {
        s.items.forEach((item, i) => {
          if (elsewhere(item.project)) return;
          // A memory the briefing quotes (a decision, a plan) is not repeated; a project's link is only a pointer.
          if (item.link && item.source === 'memory') inBriefing.add(item.link);
          candidates.push({
            tier: 1,
            headers: ['wm', `wm:${s.name}`],
            text: `${indent(renderItem(item))}\n`,
            kind: 'working_memory',
            id: `${s.name}:${i + 1}`,
            title: oneLine(item.text, 80),
            reason: `working memory, ${WM_HEADINGS[s.name]}${s.edited ? ' (edited by a person)' : ''}`,
            link: item.link ?? `tapedeck://working-memory/${space}/${wm.date}#${s.name}`,
          });
        });
      }

      for (const { m, match, score } of await relevantMemories(space, project, inBriefing)) {
        const title = m.title.replace(/…$/, '');
        const text = oneLine(m.content.startsWith(title) ? m.content : `${m.title}: ${m.content}`, 240);
        const link = memoryLink(m.id);
        const why =
          match === 1 && project ? 'this project' : m.project ? `project ${m.project}` : 'space-wide';
        candidates.push({
          tier: 2,
          headers: ['memories'],
          text: `- [${m.unit_type}] ${text} <${link}>\n`,
          kind: 'memory',
          id: m.id,
          title: m.title,
          reason: `${why}, importance ${m.importance}, updated ${m.updated_at.slice(0, 10)} (score ${score.toFixed(2)})`,
          link,
        });
      }

      for (const s of skills.index({ space })) {
        candidates.push({
          tier: 3,
          headers: ['skills'],
          text: `- ${s.name} [${s.badge}]: ${oneLine(s.description, 160)}\n`,
          kind: 'skill',
          id: s.name,
          title: s.name,
          reason: `active skill, ${s.badge}`,
          link: `tapedeck://skill/${s.name}`,
        });
      }

      const footer = (omitted: number[]) => {
        if (!omitted.length) return '';
        const per = new Map<BundleKind, number>();
        for (const i of omitted) per.set(candidates[i].kind, (per.get(candidates[i].kind) ?? 0) + 1);
        const parts = (Object.keys(LABEL) as BundleKind[])
          .filter((k) => per.has(k))
          .map((k) => `${per.get(k)} ${LABEL[k][per.get(k) === 1 ? 0 : 1]}`);
        return `\n_Left out for the ${fmt(budget)}-token budget: ${parts.join(', ')}._\n`;
      };
      const layout: PackLayout = {
        head: `# Session context · ${agent ?? 'any agent'} · ${project ?? 'no project'} · space ${space}\n`,
        headers: {
          rules: '\n## Rules (follow them, in this order)\n',
          wm: `\n## Working memory · ${wm.date}\n`,
          ...Object.fromEntries(wm.sections.map((s) => [`wm:${s.name}`, `### ${s.heading}\n`])),
          memories: '\n## Relevant memories\n',
          skills: '\n## Skills (load one by name when it fits the task)\n',
        },
        footer,
        worstFooter: footer(candidates.map((_, i) => i)),
      };

      const packed = pack(candidates, layout, { budget, shares: SHARES, count });
      return {
        markdown: packed.text,
        tokens: packed.tokens,
        budget,
        agent: agent ?? null,
        project,
        space,
        date: wm.date,
        items: packed.selected.map((i) => {
          const c = candidates[i];
          return {
            kind: c.kind,
            id: c.id,
            title: c.title,
            reason: c.reason,
            link: c.link,
            tokens: packed.itemTokens[i],
          };
        }),
        omitted: packed.omitted.map((i) => {
          const c = candidates[i];
          const need = `needs ${fmt(packed.itemTokens[i])} tokens, ${fmt(packed.left)} left`;
          return {
            kind: c.kind,
            id: c.id,
            title: c.title,
            reason:
              c.kind === 'rule'
                ? `rule too long for the budget, not cut (${need})`
                : `over the budget (${need})`,
            link: c.link,
          };
        }),
      };
    },
  };
}

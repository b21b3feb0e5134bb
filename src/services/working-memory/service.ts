/**
 * Working memory: a daily briefing per space (Focus, Recent decisions, Open loops, Recent
 * sessions), generated from the store, kept per (space, day), regenerated when stale, and
 * editable section by section: a person's edit of one section survives regenerations of the
 * others until it is reset.
 *
 * Staleness rule (docs/working-memory.md): a stored briefing is stale when the store's
 * fingerprint differs from the one it was generated from (threads active in its window, the
 * space's memories, the config's project→space mapping, the generator version), or when it is
 * older than `maxAgeMinutes` (default 60; a safety net for changes no fingerprint sees).
 */
import { invalidInput } from '../../core/errors.js';
import { fnv1a } from '../../core/hash.js';
import { redact } from '../../core/redact.js';
import {
  itemsOfText,
  parseSections,
  renderGenerated,
  renderSection,
  renderTitle,
  sectionOf,
  WM_HEADINGS,
  WM_SECTIONS,
  type WmItem,
  type WmSectionName,
} from '../../core/working-memory.js';
import type { ThreadRecord } from '../../ports/transcript-store.js';
import type { StoredBriefing, WorkingMemoryStore } from '../../ports/working-memory-store.js';
import { createSpaceService, type SpaceService } from '../spaces.js';
import { createGenerator, type GenerateDeps, windowOf } from './generate.js';

/** Bumped when the generated output changes shape, so stored briefings regenerate. */
/** Bumped when generated items change shape or selection, so stored briefings regenerate. */
const GENERATOR_VERSION = 2;
export const MAX_SECTION_CHARS = 20_000;
const DAY_MS = 86_400_000;

export interface WmScope {
  /** YYYY-MM-DD (UTC), `today` (default) or `yesterday`. */
  date?: string;
  space?: string;
  /** The caller's working directory, for the per-project default space. */
  cwd?: string;
}

export interface WmSectionView {
  name: WmSectionName;
  heading: string;
  /** When the generated items were made (ISO). */
  generated_at: string;
  /** True when a person's text is shown instead of the generated items. */
  edited: boolean;
  edited_at: string | null;
  /** The generated items, or a person's lines when edited. */
  items: WmItem[];
  /** The section body as shown (without its heading). */
  markdown: string;
}

export type RegenerationCause = 'new' | 'store-changed' | 'expired' | 'refresh';

export interface WorkingMemory {
  date: string;
  space: string;
  markdown: string;
  sections: WmSectionView[];
  /** True only for a `regenerate: false` read of a briefing behind the store. */
  stale: boolean;
  generated_at: string;
  /** Why this call regenerated the briefing, or null when the stored one was current. */
  regenerated: RegenerationCause | null;
}

export interface WorkingMemoryService {
  /** Today's (or `date`'s) briefing, regenerated first when stale (unless `regenerate: false`). */
  read(input?: WmScope & { regenerate?: boolean }): Promise<WorkingMemory>;
  /** Regenerate now; `reset` drops a person's edits of those sections (`all` for every one). */
  refresh(
    input?: WmScope & { reset?: string | string[] },
  ): Promise<WorkingMemory & { reset: WmSectionName[] }>;
  /**
   * A person's edit. With `section`, `text` is that section's new body. Without, `text` is a
   * briefing in Markdown: each `## Heading` section whose body differs from what is shown becomes
   * an edit (one equal to the generated text drops the edit). Other sections are untouched.
   */
  edit(
    input: WmScope & { section?: string; text: string },
  ): Promise<WorkingMemory & { changed: WmSectionName[] }>;
  /** The age after which a stored briefing is regenerated anyway. */
  readonly maxAgeMinutes: number;
}

export interface WorkingMemoryDeps extends Omit<GenerateDeps, 'threadSpace'> {
  store: WorkingMemoryStore;
  spaces: SpaceService;
  /** config `spaces`: project directory → space. A thread indexed in `default` belongs to its project's space. */
  projectSpaces?: Readonly<Record<string, string>>;
  maxAgeMinutes?: number;
  now?: () => number;
}

/** Whether a `## ` heading names this section (an unknown heading is not an error here). */
function isHeadingOf(name: string, section: WmSectionName): boolean {
  try {
    return sectionOf(name) === section;
  } catch {
    return false;
  }
}

export function createWorkingMemoryService(deps: WorkingMemoryDeps): WorkingMemoryService {
  const { store, spaces, projectSpaces = {}, maxAgeMinutes = 60, now = Date.now } = deps;
  // Mapping only (no TAPEDECK_SPACE): where a project's threads belong does not depend on the caller.
  const mapping = createSpaceService({ mappings: projectSpaces });
  const threadSpace = (t: ThreadRecord) =>
    t.space !== 'default' ? t.space : t.project ? mapping.resolve({ project: t.project }) : 'default';
  const generate = createGenerator({ ...deps, threadSpace });
  const mappingKey = fnv1a(JSON.stringify(Object.entries(projectSpaces).sort())).toString(36);
  const iso = () => new Date(now()).toISOString();

  function scope(input: WmScope): { space: string; day: string } {
    const space = spaces.resolve({ space: input.space, cwd: input.cwd });
    const today = iso().slice(0, 10);
    const raw = (input.date ?? '').trim().toLowerCase();
    if (raw === '' || raw === 'today') return { space, day: today };
    if (raw === 'yesterday') return { space, day: new Date(now() - DAY_MS).toISOString().slice(0, 10) };
    const t = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? Date.parse(`${raw}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== raw)
      throw invalidInput(`Invalid date "${input.date}": use YYYY-MM-DD (UTC), today or yesterday`);
    if (raw > today)
      throw invalidInput(`${raw} is in the future; working memory covers today and earlier days`);
    return { space, day: raw };
  }

  const fingerprint = async (space: string, day: string) =>
    `v${GENERATOR_VERSION}|${mappingKey}|${await store.fingerprint(space, windowOf(day).start)}`;

  function view(b: StoredBriefing, stale: boolean, regenerated: RegenerationCause | null): WorkingMemory {
    const sections = WM_SECTIONS.map((name): WmSectionView => {
      const s = b.sections.find((x) => x.section === name);
      const edited = s?.edit != null;
      return {
        name,
        heading: WM_HEADINGS[name],
        generated_at: s?.generatedAt || b.generatedAt,
        edited,
        edited_at: s?.editedAt ?? null,
        items: edited ? itemsOfText(s!.edit!) : (s?.items ?? []),
        markdown: edited ? s!.edit! : renderGenerated(name, s?.items ?? []),
      };
    });
    const markdown = `${[renderTitle(b.day, b.space), ...sections.map((s) => renderSection(s.name, s.markdown, s.edited))].join('\n\n')}\n`;
    return {
      date: b.day,
      space: b.space,
      markdown,
      sections,
      stale,
      generated_at: b.generatedAt,
      regenerated,
    };
  }

  async function regenerate(
    space: string,
    day: string,
    cause: RegenerationCause,
    old?: StoredBriefing,
  ): Promise<WorkingMemory> {
    const fp = await fingerprint(space, day);
    const generatedAt = iso();
    const sections = generate(space, day);
    const fresh = { space, day, fingerprint: fp, generatedAt, sections };
    if (store.writable) {
      await store.saveGenerated(fresh);
      // Read back: an edit saved by someone else meanwhile is part of the answer.
      return view((await store.get(space, day))!, false, cause);
    }
    // A read-only database: answer with a fresh briefing (and the edits it has) without keeping it.
    const edits = new Map(old?.sections.map((s) => [s.section, s]));
    return view(
      {
        ...fresh,
        sections: sections.map((s) => ({
          ...s,
          generatedAt,
          edit: edits.get(s.section)?.edit ?? null,
          editedAt: edits.get(s.section)?.editedAt ?? null,
        })),
      },
      false,
      cause,
    );
  }

  async function staleness(
    b: StoredBriefing | undefined,
    space: string,
    day: string,
  ): Promise<RegenerationCause | null> {
    if (!b) return 'new';
    if (b.fingerprint !== (await fingerprint(space, day))) return 'store-changed';
    if (now() - Date.parse(b.generatedAt) > maxAgeMinutes * 60_000) return 'expired';
    return null;
  }

  async function read(input: WmScope & { regenerate?: boolean } = {}): Promise<WorkingMemory> {
    const { space, day } = scope(input);
    const stored = await store.get(space, day);
    const cause = await staleness(stored, space, day);
    if (!cause) return view(stored!, false, null);
    if (stored && input.regenerate === false) return view(stored, true, null);
    return regenerate(space, day, cause, stored);
  }

  function cleanBody(text: unknown, section: WmSectionName): string {
    if (typeof text !== 'string' || text.trim() === '')
      throw invalidInput(
        `The text for "${WM_HEADINGS[section]}" is empty; to go back to the generated section use \`tapedeck wm refresh --reset ${section}\``,
      );
    const body = text.replace(/\r\n?/g, '\n').trim();
    if (body.length > MAX_SECTION_CHARS)
      throw invalidInput(
        `The text for "${WM_HEADINGS[section]}" is over ${MAX_SECTION_CHARS.toLocaleString('en-US')} characters`,
      );
    let fence = false;
    for (const line of body.split('\n')) {
      if (/^\s*(```|~~~)/.test(line)) fence = !fence;
      if (!fence && /^##\s/.test(line))
        throw invalidInput(
          `A section body cannot hold a "## " heading ("${line.trim()}"); use ### for sub-headings`,
        );
    }
    return redact(body).text;
  }

  return {
    maxAgeMinutes,
    read,

    async refresh(input = {}) {
      const { space, day } = scope(input);
      const asked = (Array.isArray(input.reset) ? input.reset : input.reset ? [input.reset] : []).flatMap(
        (r) => String(r).split(','),
      );
      const reset = asked.some((r) => r.trim().toLowerCase() === 'all')
        ? [...WM_SECTIONS]
        : [...new Set(asked.filter((r) => r.trim()).map(sectionOf))];
      const at = iso();
      for (const s of reset) await store.setEdit(space, day, s, null, at);
      return { ...(await regenerate(space, day, 'refresh', await store.get(space, day))), reset };
    },

    async edit(input) {
      const { space, day } = scope(input);
      let wanted: Map<WmSectionName, string>;
      const whole = input.section === undefined || input.section === '';
      if (!whole) {
        const section = sectionOf(input.section!);
        // A body given with its own heading (a copied section) is taken without it.
        const text =
          typeof input.text === 'string'
            ? input.text.replace(/^\s*##\s+(.+)\n/, (h, name: string) =>
                isHeadingOf(name, section) ? '' : h,
              )
            : input.text;
        wanted = new Map([[section, cleanBody(text, section)]]);
      } else {
        if (typeof input.text !== 'string' || input.text.trim() === '')
          throw invalidInput('The edited briefing is empty');
        wanted = new Map([...parseSections(input.text)].map(([s, body]) => [s, cleanBody(body, s)]));
      }
      const current = await read({ date: day, space });
      const at = iso();
      const changed: WmSectionName[] = [];
      for (const [section, body] of wanted) {
        const shown = current.sections.find((s) => s.name === section)!;
        if (whole && body === shown.markdown) continue;
        const generated = renderGenerated(
          section,
          (await store.get(space, day))?.sections.find((s) => s.section === section)?.items ?? [],
        );
        const next = whole && body === generated ? null : body;
        if (await store.setEdit(space, day, section, next, at)) changed.push(section);
      }
      return { ...view((await store.get(space, day))!, false, current.regenerated), changed };
    },
  };
}

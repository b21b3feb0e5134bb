/**
 * `/skills/<name>/SKILL.md`: each skill's current SKILL.md exactly as stored, and its earlier
 * versions under `/skills/<name>/versions/<n>.md` (read-only). Archived skills are not listed but
 * stay readable at their path. Writing SKILL.md adds a skill (its front matter must name the
 * folder) or a new version of it; rm archives the skill (`tapedeck skills stage <name> active` undoes).
 */
import { invalidInput, notFound, TapedeckError } from '../../core/errors.js';
import { parseSkillMd } from '../../core/skill.js';
import type { SkillsService } from '../skills/service.js';
import type { SkillSummary } from '../skills/views.js';
import {
  bytes,
  type FsFile,
  type FsNode,
  type FsScope,
  forbidden,
  type Mount,
  pagedDir,
  pathOf,
  staticDir,
} from './tree.js';

const SKILL_FILE = 'SKILL.md';

export function createSkillsMount({ skills }: { skills: SkillsService }): Mount {
  const at = (rest: string[]) => pathOf('skills', rest);

  function summary(name: string, scope: FsScope): SkillSummary | undefined {
    try {
      return skills.show(name, scope);
    } catch (e) {
      if (e instanceof TapedeckError && (e.code === 'NOT_FOUND' || e.code === 'INVALID_INPUT'))
        return undefined;
      throw e;
    }
  }

  function skillFile(s: SkillSummary, scope: FsScope): FsFile {
    const text = skills.render(s.name, scope);
    return {
      kind: 'file',
      name: SKILL_FILE,
      path: at([s.name, SKILL_FILE]),
      title: s.description,
      updated_at: s.updated_at,
      link: `tapedeck://fs${at([s.name, SKILL_FILE])}`,
      writable: true,
      size: bytes(text),
      info: { version: s.version, stage: s.stage, badge: s.badge },
      read: () => text,
    };
  }

  function versionsDir(name: string, scope: FsScope): FsNode {
    const detail = skills.show(name, scope);
    const file = (v: { version: number; created_at: string; note: string | null }): FsFile => {
      const text = skills.render(name, { ...scope, version: v.version });
      return {
        kind: 'file',
        name: `${v.version}.md`,
        path: at([name, 'versions', `${v.version}.md`]),
        title: v.note ?? `version ${v.version}`,
        created_at: v.created_at,
        updated_at: v.created_at,
        link: `tapedeck://fs${at([name, 'versions', `${v.version}.md`])}`,
        writable: false,
        size: bytes(text),
        info: { version: v.version, current: v.version === detail.version },
        read: () => text,
      };
    };
    return {
      ...staticDir({ path: at([name, 'versions']), name: 'versions', writable: false }, () =>
        detail.versions.map(file),
      ),
      count: detail.versions.length,
      view: true,
    };
  }

  function skillDir(s: SkillSummary, scope: FsScope): FsNode {
    return staticDir(
      { path: at([s.name]), name: s.name, title: s.description, updated_at: s.updated_at, writable: false },
      () => [skillFile(s, scope), versionsDir(s.name, scope)],
    );
  }

  function resolve(segments: string[], scope: FsScope): FsNode | undefined {
    const [name, file, version, ...extra] = segments;
    if (name === undefined)
      return pagedDir({ path: at([]), name: 'skills', writable: false }, (offset, limit) =>
        skills
          .list(scope)
          .slice(offset, offset + limit)
          .map((s) => skillDir(s, scope)),
      );
    const s = summary(name, scope);
    if (!s) return undefined;
    if (file === undefined) return skillDir(s, scope);
    if (file === SKILL_FILE && version === undefined) return skillFile(s, scope);
    if (file !== 'versions' || extra.length) return undefined;
    const dir = versionsDir(name, scope);
    if (version === undefined) return dir;
    const n = /^(\d+)\.md$/.exec(version);
    if (!n || Number(n[1]) < 1 || Number(n[1]) > s.version) return undefined;
    return dir.kind === 'dir' ? dir.list(Number(n[1]) - 1, 1).entries[0] : undefined;
  }

  return {
    name: 'skills',
    description: 'skills: <name>/SKILL.md (current) and <name>/versions/<n>.md',
    writable: '/skills/<name>/SKILL.md (a new skill or a new version)',
    resolve,

    write(segments, content, scope) {
      const [name, file, ...rest] = segments;
      if (!name || file !== SKILL_FILE || rest.length)
        throw forbidden(`${at(segments)} cannot be written: write /skills/<name>/SKILL.md`);
      const where = at(segments);
      const doc = parseSkillMd(content, where);
      if (doc.name !== name)
        throw invalidInput(`${where}: the front matter names "${doc.name}", but the folder is "${name}"`);
      const link = `tapedeck://fs${where}`;
      if (!summary(name, scope)) {
        const r = skills.add({ content, source: where, ...scope });
        return {
          path: where,
          canonical: where,
          link,
          status: 'created',
          note: `Created skill ${r.name} v${r.version}`,
        };
      }
      const r = skills.update(name, { content, source: where, ...scope });
      return r.changed
        ? {
            path: where,
            canonical: where,
            link,
            status: 'updated',
            note: `${name} is now at version ${r.version}`,
          }
        : {
            path: where,
            canonical: where,
            link,
            status: 'unchanged',
            note: `Unchanged: ${name} v${r.version}`,
          };
    },

    remove(segments, scope) {
      const [name, file, ...rest] = segments;
      if (!name || (file !== undefined && file !== SKILL_FILE) || rest.length)
        throw forbidden(`${at(segments)} cannot be removed: rm /skills/<name>/SKILL.md archives the skill`);
      const s = summary(name, scope);
      if (!s) throw notFound(`No skill ${name}`);
      if (s.stage === 'archived') throw new TapedeckError('CONFLICT', `Skill ${name} is already archived`);
      skills.setStage(name, 'archived', scope);
      return { path: at(segments), status: 'archived', undo: `tapedeck skills stage ${name} ${s.stage}` };
    },

    recall(query, segments, scope, limit) {
      const r = skills.find(query, {
        ...scope,
        limit: Math.min(limit, 50),
        includeArchived: segments.length > 0,
      });
      return r.hits
        .filter((h) => segments.length === 0 || h.name === segments[0])
        .map((h) => ({
          path: at([h.name, SKILL_FILE]),
          title: h.name,
          snippet: `${h.description} (${h.badge}, v${h.version}, ${h.stage})`,
          score: h.score,
        }));
    },
  };
}

/**
 * The file side of skills: reading SKILL.md folders, writing them out, installing one into a
 * workspace and keeping it out of git through `.git/info/exclude` (which, unlike .gitignore, is
 * never committed: the skill stays a local aid, not a change to the repository).
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { invalidInput, notFound, TapedeckError } from '../../core/errors.js';

export interface SkillFile {
  /** Path of the SKILL.md. */
  file: string;
  /** Name of the folder holding it (must equal the skill's name). */
  folder: string;
  text: string;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * The SKILL.md files of `dir`: the folder itself when it holds one (a single skill), otherwise
 * `<dir>/<folder>/SKILL.md` for each sub-folder (hidden folders and folders without one are skipped).
 */
export function readSkillFolders(dir: string): { files: SkillFile[]; skipped: string[] } {
  const root = resolve(dir);
  if (!isDir(root)) throw notFound(`No folder ${root}`);
  const single = join(root, 'SKILL.md');
  if (isFile(single))
    return {
      files: [{ file: single, folder: basename(root), text: readFileSync(single, 'utf8') }],
      skipped: [],
    };
  const files: SkillFile[] = [];
  const skipped: string[] = [];
  for (const entry of readdirSync(root).sort()) {
    if (entry.startsWith('.')) continue;
    const folder = join(root, entry);
    if (!isDir(folder)) continue;
    const file = join(folder, 'SKILL.md');
    if (isFile(file)) files.push({ file, folder: entry, text: readFileSync(file, 'utf8') });
    else skipped.push(folder);
  }
  if (files.length === 0)
    throw invalidInput(`${root}: no SKILL.md in it or in its sub-folders (<folder>/SKILL.md)`);
  return { files, skipped };
}

/** Write `<dir>/<name>/SKILL.md`; returns the file path. */
export function writeSkillFolder(dir: string, name: string, content: string): string {
  const folder = join(resolve(dir), name);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'SKILL.md');
  writeFileSync(file, content);
  return file;
}

export interface GitExclude {
  /** The exclude file written to. */
  file: string;
  /** The pattern, anchored at the repository root. */
  pattern: string;
  /** False when the pattern was already there. */
  added: boolean;
}

/** The repository holding `dir`: its work-tree root and the git directory that owns info/exclude. */
export function findGitRepo(dir: string): { root: string; gitDir: string } | null {
  let d = resolve(dir);
  for (let i = 0; i < 256; i++) {
    const dotGit = join(d, '.git');
    if (isDir(dotGit)) return { root: d, gitDir: dotGit };
    if (isFile(dotGit)) {
      // A worktree or submodule: `.git` is a file naming the real git directory; info/exclude is
      // shared by worktrees and lives in the common directory.
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (m) {
        const gitDir = resolve(d, m[1].trim());
        const common = join(gitDir, 'commondir');
        return {
          root: d,
          gitDir: isFile(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir,
        };
      }
    }
    const up = dirname(d);
    if (up === d) return null;
    d = up;
  }
  return null;
}

/** Append an anchored pattern for `target` (a folder) to the repository's info/exclude, once. */
export function excludeFromGit(target: string): GitExclude | null {
  const repo = findGitRepo(target);
  if (!repo) return null;
  const rel = relative(repo.root, resolve(target)).split(sep).join('/');
  const pattern = `/${rel}/`;
  const file = join(repo.gitDir, 'info', 'exclude');
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (existing.split(/\r?\n/).some((l) => l.trim() === pattern)) return { file, pattern, added: false };
  mkdirSync(dirname(file), { recursive: true });
  const sepLine = existing === '' || existing.endsWith('\n') ? '' : '\n';
  writeFileSync(file, `${existing}${sepLine}${pattern}\n`);
  return { file, pattern, added: true };
}

export interface InstallResult {
  path: string;
  status: 'created' | 'updated' | 'unchanged';
  git_exclude: GitExclude | null;
}

/**
 * Write a skill into `<workspace>/.agents/skills/<name>/SKILL.md`. An existing file is replaced
 * only when it is one of `known` (a version Tapedeck wrote) or `force` is set, so local edits are
 * never lost silently.
 */
export function installSkillFile(opts: {
  workspace: string;
  name: string;
  content: string;
  known: readonly string[];
  force?: boolean;
  excludeFromGit?: boolean;
}): InstallResult {
  const workspace = resolve(opts.workspace);
  if (!isDir(workspace)) throw notFound(`No workspace folder ${workspace}`);
  const folder = join(workspace, '.agents', 'skills', opts.name);
  const path = join(folder, 'SKILL.md');
  let status: InstallResult['status'] = 'created';
  if (existsSync(path)) {
    const current = readFileSync(path, 'utf8');
    if (current === opts.content) status = 'unchanged';
    else if (opts.force || opts.known.includes(current)) status = 'updated';
    else
      throw new TapedeckError(
        'CONFLICT',
        `${path} has local changes (it matches no version of "${opts.name}"); pass --force to overwrite it`,
        { path },
      );
  }
  if (status !== 'unchanged') {
    mkdirSync(folder, { recursive: true });
    // Written whole then renamed: an agent reading the skill while it is refreshed (the session-start
    // sync) sees the old file or the new one, never half of it.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, opts.content);
    renameSync(tmp, path);
  }
  return { path, status, git_exclude: opts.excludeFromGit ? excludeFromGit(folder) : null };
}

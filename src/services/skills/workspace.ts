/**
 * What a workspace holds, as signals for suggesting skills (core/skill-suggest.ts): build files
 * (Makefile targets, package.json scripts and dependencies), Dockerfiles, CI workflows, languages
 * by file extension and the words of recent commits. Reads are bounded (a few thousand entries,
 * small files only, git with a timeout) so a huge repository answers as fast as a small one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { stems, type WorkspaceSignal } from '../../core/skill-suggest.js';

const MAX_ENTRIES = 5000;
const MAX_FILE_BYTES = 256 * 1024;
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  'dist',
  'build',
  'target',
  'vendor',
  '.venv',
  'venv',
  '__pycache__',
]);

const LANGUAGES: Record<string, string[]> = {
  ts: ['typescript', 'ts'],
  tsx: ['typescript', 'react', 'tsx'],
  js: ['javascript', 'js', 'node'],
  jsx: ['javascript', 'react', 'jsx'],
  py: ['python', 'py'],
  go: ['go', 'golang'],
  rs: ['rust', 'cargo'],
  java: ['java'],
  kt: ['kotlin'],
  rb: ['ruby'],
  php: ['php'],
  cs: ['csharp', 'dotnet'],
  swift: ['swift'],
  sql: ['sql', 'database', 'migration'],
  tf: ['terraform'],
  sh: ['shell', 'bash'],
};

function readSmall(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** File counts by extension, breadth first, at most MAX_ENTRIES entries. */
function extensions(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  const queue = [dir];
  let seen = 0;
  while (queue.length && seen < MAX_ENTRIES) {
    const d = queue.shift()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) break;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) queue.push(join(d, e.name));
      } else if (e.isFile()) {
        const ext = /\.([a-z0-9]+)$/i.exec(e.name)?.[1]?.toLowerCase();
        if (ext && LANGUAGES[ext]) counts.set(ext, (counts.get(ext) ?? 0) + 1);
      }
    }
  }
  return counts;
}

function packageJson(dir: string, out: WorkspaceSignal[]): void {
  const text = readSmall(join(dir, 'package.json'));
  if (!text) return;
  let pkg: { scripts?: Record<string, string>; dependencies?: object; devDependencies?: object };
  try {
    pkg = JSON.parse(text);
  } catch {
    return;
  }
  out.push({ terms: ['npm', 'node', 'package.json'], weight: 0.5, source: 'package.json' });
  for (const [name, command] of Object.entries(pkg.scripts ?? {}).slice(0, 40))
    out.push({
      terms: [name, ...String(command).split(/\s+/).slice(0, 2)].filter((t) => /^[a-z][\w.-]*$/i.test(t)),
      weight: 1,
      source: `package.json script "${name}"`,
    });
  const deps = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  for (const dep of deps.slice(0, 80)) {
    const bare = dep.replace(/^@[^/]+\//, '');
    out.push({ terms: [bare, dep], weight: 1.5, source: `package.json depends on ${dep}` });
  }
}

function makefile(dir: string, out: WorkspaceSignal[]): void {
  const text = readSmall(join(dir, 'Makefile')) ?? readSmall(join(dir, 'makefile'));
  if (text === undefined) return;
  out.push({ terms: ['make', 'makefile'], weight: 1, source: 'Makefile' });
  const targets = [...text.matchAll(/^([A-Za-z][\w-]*)\s*:(?!=)/gm)].map((m) => m[1]);
  for (const t of [...new Set(targets)].slice(0, 30))
    out.push({ terms: [t], weight: 1, source: `Makefile target "${t}"` });
}

function docker(dir: string, out: WorkspaceSignal[]): void {
  if (existsSync(join(dir, 'Dockerfile')))
    out.push({ terms: ['docker', 'dockerfile', 'container', 'image'], weight: 2, source: 'Dockerfile' });
  for (const f of ['docker-compose.yml', 'docker-compose.yaml', 'compose.yml', 'compose.yaml'])
    if (existsSync(join(dir, f))) {
      out.push({ terms: ['compose', 'docker', 'container'], weight: 1.5, source: f });
      break;
    }
}

function workflows(dir: string, out: WorkspaceSignal[]): void {
  const wf = join(dir, '.github', 'workflows');
  let files: string[] = [];
  try {
    files = readdirSync(wf).filter((f) => /\.ya?ml$/.test(f));
  } catch {
    // no workflows
  }
  if (files.length)
    out.push({
      terms: ['ci', 'workflow', 'github', 'actions', 'pipeline'],
      weight: 1.5,
      source: `CI workflows (.github/workflows: ${files.slice(0, 3).join(', ')})`,
    });
  if (existsSync(join(dir, '.gitlab-ci.yml')))
    out.push({ terms: ['ci', 'gitlab', 'pipeline'], weight: 1.5, source: '.gitlab-ci.yml' });
}

function languages(dir: string, out: WorkspaceSignal[]): void {
  const counts = extensions(dir);
  const total = [...counts.values()].reduce((s, n) => s + n, 0);
  for (const [ext, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5)) {
    const share = n / total;
    if (share < 0.05) continue;
    out.push({
      terms: LANGUAGES[ext],
      weight: Math.round((0.5 + 1.5 * share) * 100) / 100,
      source: `${n} .${ext} file${n === 1 ? '' : 's'} (${Math.round(share * 100)}%)`,
    });
  }
}

/** Words that recur in the last commits' subjects: what the team is working on now. */
function gitActivity(dir: string, out: WorkspaceSignal[]): void {
  let log: string;
  try {
    log = execFileSync('git', ['-C', dir, 'log', '-n', '30', '--pretty=%s'], {
      encoding: 'utf8',
      timeout: 2000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return; // not a repository, or no git
  }
  const counts = new Map<string, { n: number; word: string }>();
  for (const subject of log.split('\n'))
    for (const word of subject.toLowerCase().match(/[a-z][a-z0-9-]{2,}/g) ?? []) {
      const [stem] = stems(word);
      if (!stem) continue;
      const c = counts.get(stem) ?? { n: 0, word };
      c.n++;
      counts.set(stem, c);
    }
  for (const { n, word } of [...counts.values()]
    .filter((c) => c.n >= 2)
    .sort((a, b) => b.n - a.n)
    .slice(0, 8))
    out.push({ terms: [word], weight: 0.75, source: `recent commits say "${word}" (${n}×)` });
}

/** Every signal a workspace gives (missing files give none; nothing here throws). */
export function scanWorkspace(dir: string): WorkspaceSignal[] {
  const out: WorkspaceSignal[] = [];
  packageJson(dir, out);
  makefile(dir, out);
  docker(dir, out);
  workflows(dir, out);
  languages(dir, out);
  gitActivity(dir, out);
  return out;
}

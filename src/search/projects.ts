/**
 * Which projects a question points at: the ones it names ("what did we fix in tidewatch?", "the
 * customer-frontend build", "how is Lena's move going" for a project folder named after Lena),
 * and the one it is asked from (an agent's working folder). Search gives their sessions a prior
 * (search/weights.ts `project`), never a filter: a better match elsewhere still shows.
 */

/** Project names shorter than this are not looked for in a question ("ui", "x"). */
const MIN_NAME = 3;

/** Lower case, every run of characters other than letters and digits one space. */
const words = (s: string) =>
  ` ${s
    .toLowerCase()
    .replace(/[^a-z0-9\u00c0-\uffff]+/g, ' ')
    .trim()} `;

/** A project path's folder names, without a Windows drive (`C:`). */
const folders = (project: string) => project.split(/[\\/]/).filter((x) => x && !/^[A-Za-z]:$/.test(x));

/** A project's name: its folder's last part ("/home/dev/customer-frontend" → "customer-frontend"). */
export function projectName(project: string): string {
  return folders(project).at(-1) ?? '';
}

/**
 * The projects whose name the question holds as words (case and separators aside:
 * "customer frontend", "customer-frontend", "tidewatch/retry.py"), or whose name has a part that
 * is one of the people the question names (`names`: "Lena" for a folder `kofi-and-lena`).
 */
export function namedProjects(
  question: string,
  names: readonly string[],
  projects: readonly string[],
): string[] {
  const q = words(question);
  const people = new Set(names.map((n) => n.toLowerCase()));
  return projects.filter((p) => {
    const parts = folders(p);
    // A home folder (`/home/dev`, `C:\Users\me`) or a top folder (`/tmp`) is named after a
    // user or the system, not a piece of work: "the dev server" does not point at `/home/dev`.
    if (parts.length < 3) return false;
    const name = words(parts.at(-1)!);
    if (name.length - 2 < MIN_NAME) return false;
    if (q.includes(name)) return true;
    return (
      people.size > 0 &&
      name
        .trim()
        .split(' ')
        .some((part) => people.has(part))
    );
  });
}

/** Whether `path` is the folder `root` or inside it (whole folder names: not `root-old`). */
function atOrBelow(path: string, root: string): boolean {
  const r = root.replace(/[\\/]+$/, '');
  const p = path.replace(/[\\/]+$/, '');
  return (
    r !== '' && p.startsWith(r) && (p.length === r.length || p[r.length] === '/' || p[r.length] === '\\')
  );
}

/** The project `dir` is in: the longest one that is `dir` or a folder above it. */
export function projectAt(dir: string, projects: readonly string[]): string | null {
  let best: string | null = null;
  for (const p of projects) if (atOrBelow(dir, p) && (!best || p.length > best.length)) best = p;
  return best;
}

/** Whether a step of `project` is in one of `preferred` (it or a folder below it). */
export function inProjects(project: string | null, preferred: readonly string[]): boolean {
  return !!project && preferred.some((p) => atOrBelow(project, p));
}

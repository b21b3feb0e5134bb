/**
 * Reading an export folder: the manifest, then every record of every file, validated (records.ts)
 * and checked across files (duplicates, the manifest's counts). Every problem is collected with
 * its file and line and reported at once; nothing is written.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { invalidInput, TapedeckError } from '../../core/errors.js';
import { type Bundle, countsOf } from './export.js';
import { attempt, fieldsOf } from './fields.js';
import {
  type Counts,
  FILES,
  FORMAT,
  FORMAT_VERSION,
  type Manifest,
  type ThreadHeader,
  type ThreadLine,
} from './format.js';
import { readMemory, readRule, readSkill, readThreadLine, readWiki, readWmEdit } from './records.js';

const MAX_PROBLEMS = 20;

export interface At {
  file: string;
  line: number;
}
export type Located<T> = T & { at: At };

export interface Parsed {
  manifest: Manifest;
  bundle: { [K in keyof Omit<Bundle, 'spaces'>]: Located<{ value: Bundle[K][number] }>[] };
  redactions: number;
}

export function problemError(
  dir: string,
  problems: { file: string; line: number; message: string }[],
): TapedeckError {
  const shown = problems
    .slice(0, MAX_PROBLEMS)
    .map((p) => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  const more = problems.length > MAX_PROBLEMS ? ` (and ${problems.length - MAX_PROBLEMS} more)` : '';
  return invalidInput(`Nothing imported from ${dir}: ${shown.join('; ')}${more}`, {
    problems: problems.slice(0, 100),
  });
}

/** Read and validate the whole folder; INVALID_INPUT listing every problem found. */
export function readFolder(dir: string): Parsed {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw invalidInput(`${root} is not a folder`);
  const manifestPath = join(root, FILES.manifest);
  if (!existsSync(manifestPath))
    throw invalidInput(
      `${root} has no ${FILES.manifest}; import reads a folder written by \`tapedeck export\``,
    );
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  } catch (e) {
    throw invalidInput(`${FILES.manifest}: not JSON (${(e as Error).message})`);
  }
  if (manifest?.format !== FORMAT) throw invalidInput(`${FILES.manifest}: "format" is not "${FORMAT}"`);
  if (!Number.isInteger(manifest.format_version) || manifest.format_version < 1)
    throw invalidInput(`${FILES.manifest}: "format_version" must be a whole number ≥ 1`);
  if (manifest.format_version > FORMAT_VERSION)
    throw new TapedeckError(
      'UNSUPPORTED',
      `${FILES.manifest}: format version ${manifest.format_version} was written by a newer Tapedeck (${manifest.tapedeck_version}); this one reads version ${FORMAT_VERSION}`,
    );

  const problems: { file: string; line: number; message: string }[] = [];
  const redactions = { n: 0 };
  const lines = (file: string): { line: number; value: unknown }[] => {
    const path = join(root, file);
    if (!existsSync(path)) return [];
    const out: { line: number; value: unknown }[] = [];
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (text.trim() === '') return;
        try {
          out.push({ line: i + 1, value: JSON.parse(text) });
        } catch (e) {
          problems.push({ file, line: i + 1, message: `not JSON (${(e as Error).message})` });
        }
      });
    return out;
  };
  function readAll<T>(file: string, read: (f: ReturnType<typeof fieldsOf>) => T): Located<{ value: T }>[] {
    return lines(file).flatMap(({ line, value }) => {
      const r = attempt(() => read(fieldsOf(value, '', redactions)));
      if (r.ok) return [{ value: r.value, at: { file, line } }];
      problems.push({ file, line, message: r.message });
      return [];
    });
  }

  const memories = readAll(FILES.memories, readMemory);
  const rules = readAll(FILES.rules, readRule);
  const skills = readAll(FILES.skills, readSkill);
  const wiki = readAll(FILES.wiki, readWiki);
  const workingMemory = readAll(FILES.workingMemory, readWmEdit);
  const threads: Located<{ value: ThreadLine[] }>[] = [];
  const threadDir = join(root, FILES.threadsDir);
  const threadFiles = existsSync(threadDir)
    ? readdirSync(threadDir)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
    : [];
  for (const name of threadFiles) {
    const file = `${FILES.threadsDir}/${name}`;
    const got: ThreadLine[] = [];
    let ok = true;
    let lastStep = -1;
    for (const { line, value } of lines(file)) {
      const r = attempt(() => readThreadLine(fieldsOf(value, '', redactions), got.length === 0));
      if (!r.ok) {
        problems.push({ file, line, message: r.message });
        ok = false;
        break;
      }
      if (r.value.type === 'message') {
        if (r.value.step <= lastStep) {
          problems.push({
            file,
            line,
            message: `step ${r.value.step} comes after step ${lastStep}; steps must ascend`,
          });
          ok = false;
          break;
        }
        lastStep = r.value.step;
      }
      got.push(r.value);
    }
    if (ok && got.length === 0) problems.push({ file, line: 0, message: 'the file is empty' });
    else if (ok) threads.push({ value: got, at: { file, line: 1 } });
  }

  // The same key twice is a broken folder, not two records.
  const unique = <T>(list: Located<{ value: T }>[], key: (v: T) => string, what: string) => {
    const seen = new Map<string, At>();
    for (const r of list) {
      const k = key(r.value);
      const first = seen.get(k);
      if (first)
        problems.push({
          ...r.at,
          message: `${what} ${k} appears twice (first at ${first.file}:${first.line})`,
        });
      else seen.set(k, r.at);
    }
  };
  unique(memories, (m) => m.id, 'memory');
  unique(rules, (r) => r.id, 'rule');
  unique(skills, (s) => `${s.space}/${s.name}`, 'skill');
  unique(wiki, (p) => `${p.space}/${p.path}`, 'wiki page');
  unique(threads, (t) => (t[0] as ThreadHeader).id, 'thread');
  unique(workingMemory, (e) => `${e.space}/${e.day}/${e.section}`, 'working-memory edit');

  const bundle = { memories, rules, skills, wiki, threads, workingMemory };
  if (problems.length === 0 && manifest.counts) {
    const found = countsOf({
      memories: memories.map((x) => x.value),
      rules: rules.map((x) => x.value),
      skills: skills.map((x) => x.value),
      wiki: wiki.map((x) => x.value),
      threads: threads.map((x) => x.value),
      workingMemory: workingMemory.map((x) => x.value),
    });
    for (const [k, n] of Object.entries(found))
      if (manifest.counts[k as keyof Counts] !== undefined && manifest.counts[k as keyof Counts] !== n)
        problems.push({
          file: FILES.manifest,
          line: 0,
          message: `it counts ${manifest.counts[k as keyof Counts]} ${k.replace(/_/g, ' ')}, the folder holds ${n} (a file is missing or cut short)`,
        });
  }
  if (problems.length) throw problemError(root, problems);
  return { manifest, bundle, redactions: redactions.n };
}

/** Move every record into `space` (an import into another lane than the one exported). */

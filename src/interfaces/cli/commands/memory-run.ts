/** The work behind `tapedeck memory …` (loaded only when one of those commands runs). */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { invalidInput } from '../../../core/errors.js';
import type { MemoryAddInput, MemoryQueryInput } from '../../../services/memories.js';
import { type GlobalFlags, intOption, openEngine } from '../context.js';
import { print, printJson } from '../output.js';
import { formatMemory, formatMemoryLine, formatMemorySearch } from './memory-format.js';

interface ContentFlags extends GlobalFlags {
  title?: string;
  type?: string;
  label?: string[];
  importance?: string;
  confidence?: string;
  project?: string;
  space?: string;
  thread?: string;
  steps?: string;
  source?: string;
  eventStart?: string;
  eventEnd?: string;
}

interface FilterFlags extends GlobalFlags {
  label?: string[];
  type?: string[];
  project?: string;
  space?: string;
  allSpaces?: boolean;
  asOf?: string;
  since?: string;
  until?: string;
  limit?: string;
}

/** A project typed on the command line: relative paths are taken from the current directory. */
const projectArg = (p: string | undefined) => (p === undefined || p === '' ? p : resolve(p));

function contentOf(words: string[]): string {
  if (words.length === 1 && words[0] === '-') return readFileSync(0, 'utf8');
  return words.join(' ');
}

function addInput(words: string[], f: ContentFlags): MemoryAddInput {
  return {
    content: contentOf(words),
    title: f.title,
    type: f.type,
    labels: f.label,
    importance: f.importance,
    confidence: f.confidence,
    project: projectArg(f.project),
    space: f.space,
    cwd: process.cwd(),
    thread: f.thread,
    steps: f.steps,
    source: f.source,
    eventStart: f.eventStart,
    eventEnd: f.eventEnd,
  };
}

function queryInput(f: FilterFlags): MemoryQueryInput {
  if (f.space && f.allSpaces) throw invalidInput('Give either --space or --all-spaces, not both');
  return {
    labels: f.label,
    types: f.type,
    project: projectArg(f.project),
    space: f.space,
    allSpaces: f.allSpaces,
    cwd: process.cwd(),
    asOf: f.asOf,
    since: f.since,
    until: f.until,
    limit: intOption('limit', f.limit, 1),
  };
}

export async function runMemoryAdd(words: string[], flags: ContentFlags): Promise<void> {
  const engine = openEngine(flags);
  try {
    const { id, deduplicated, ...rest } = engine.memories.add(addInput(words, flags));
    if (flags.json) printJson({ id, deduplicated, ...rest });
    else {
      const how =
        rest.match === 'near' ? `a near-duplicate (similarity ${rest.similarity})` : 'an exact duplicate';
      print(deduplicated ? `Already remembered (${how}); labels merged:` : 'Remembered:');
      print(formatMemoryLine({ id, ...rest }));
      print(`  ${rest.link}`);
    }
  } finally {
    engine.close();
  }
}

export async function runMemoryShow(ref: string, flags: GlobalFlags): Promise<void> {
  const engine = openEngine(flags);
  try {
    const m = engine.memories.get(ref);
    if (flags.json) printJson(m);
    else print(formatMemory(m));
  } finally {
    engine.close();
  }
}

interface UpdateFlags extends Omit<ContentFlags, 'label'> {
  content?: string;
  label?: string[];
  addLabel?: string[];
  removeLabel?: string[];
}

export async function runMemoryUpdate(ref: string, f: UpdateFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const m = engine.memories.update(ref, {
      content: f.content,
      title: f.title,
      type: f.type,
      labels: f.label,
      addLabels: f.addLabel,
      removeLabels: f.removeLabel,
      importance: f.importance,
      confidence: f.confidence,
      project: projectArg(f.project),
      thread: f.thread,
      steps: f.steps,
      source: f.source,
      eventStart: f.eventStart,
      eventEnd: f.eventEnd,
    });
    if (f.json) printJson(m);
    else print(formatMemory(m));
  } finally {
    engine.close();
  }
}

export async function runMemoryList(f: FilterFlags & { status?: string; offset?: string }): Promise<void> {
  const engine = openEngine(f);
  try {
    const r = engine.memories.list({
      ...queryInput(f),
      status: f.status,
      offset: intOption('offset', f.offset),
    });
    if (f.json) printJson(r);
    else if (r.memories.length === 0) print('No memories here. Add one with `tapedeck memory add "…"`.');
    else {
      for (const m of r.memories) print(formatMemoryLine(m));
      if (r.next_offset !== null) print(`… more: --offset ${r.next_offset}`);
    }
  } finally {
    engine.close();
  }
}

export async function runMemorySearch(query: string, f: FilterFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const r = engine.memories.search(query, queryInput(f));
    if (f.json) printJson(r);
    else print(formatMemorySearch(r));
  } finally {
    engine.close();
  }
}

export async function runMemorySupersede(ref: string, words: string[], f: ContentFlags): Promise<void> {
  const engine = openEngine(f);
  try {
    const { space: _ignored, ...input } = addInput(words, f);
    const m = engine.memories.supersede(ref, input);
    if (f.json) printJson(m);
    else {
      print(`Superseded ${m.supersedes.join(', ')} with:`);
      print(formatMemoryLine(m));
      print(`  ${m.link}`);
    }
  } finally {
    engine.close();
  }
}

export async function runMemoryLifecycle(
  verb: 'forget' | 'restore',
  ref: string,
  f: GlobalFlags,
): Promise<void> {
  const engine = openEngine(f);
  try {
    const m = verb === 'forget' ? engine.memories.forget(ref) : engine.memories.restore(ref);
    if (f.json) printJson(m);
    else if (!m.changed)
      print(`Memory ${m.id} was already ${verb === 'forget' ? 'forgotten' : 'not forgotten'}.`);
    else
      print(
        verb === 'forget'
          ? `Forgot ${m.id} (hidden; \`tapedeck memory restore ${m.id}\` brings it back).`
          : `Restored ${m.id} (${m.status}).`,
      );
  } finally {
    engine.close();
  }
}

export async function runMemoryPurge(
  ref: string,
  f: GlobalFlags & { yes?: boolean; force?: boolean },
): Promise<void> {
  if (!f.yes) throw invalidInput('purge deletes a memory for good; confirm with --yes');
  const engine = openEngine(f);
  try {
    const r = engine.memories.purge(ref, { force: f.force });
    if (f.json) printJson(r);
    else print(`Purged ${r.id}.`);
  } finally {
    engine.close();
  }
}

/**
 * Working memory, the context bundle and the fs seen through a gate. The first two work per
 * space, so pinning the space is enough. The fs's /threads mount lists threads of every space,
 * so a key limited to spaces gets no fs at all (FORBIDDEN) until that mount filters by space.
 */
import type { ContextBundleService } from '../context-bundle.js';
import type { FsService } from '../fs/service.js';
import type { WorkingMemoryService } from '../working-memory/index.js';
import { forbidden, type Gate } from './access.js';
import { type MethodRule, scopeMethods } from './methods.js';

const r = (at: number): MethodRule => ({ at, need: 'read' });
const w = (at: number): MethodRule => ({ at, need: 'write' });

export function scopeWorkingMemory(
  wm: WorkingMemoryService,
  gate: Gate,
  fallback: () => string,
): WorkingMemoryService {
  const methods = scopeMethods(
    { read: wm.read.bind(wm), refresh: wm.refresh.bind(wm), edit: wm.edit.bind(wm) },
    { read: r(0), refresh: w(0), edit: w(0) },
    gate,
    fallback,
    'working memory',
  );
  return {
    ...methods,
    get maxAgeMinutes() {
      return wm.maxAgeMinutes;
    },
  };
}

export const scopeContextBundle = (
  cb: ContextBundleService,
  gate: Gate,
  fallback: () => string,
): ContextBundleService => scopeMethods(cb, { build: r(0) }, gate, fallback, 'context bundle');

const FS: { [K in keyof FsService]: MethodRule } = {
  ls: r(1),
  cat: r(1),
  stat: r(1),
  find: r(1),
  grep: r(2),
  recall: r(2),
  write: w(2),
  rm: w(1),
};

export function scopeFs(fs: FsService, gate: Gate, fallback: () => string): FsService {
  if (!gate.restricted) return scopeMethods(fs, FS, gate, fallback, 'fs');
  const refuse = () => {
    throw forbidden('The fs shows threads of every space; a key limited to spaces cannot use it');
  };
  return {
    ls: refuse,
    cat: refuse,
    stat: refuse,
    find: refuse,
    grep: refuse,
    recall: refuse,
    write: refuse,
    rm: refuse,
  };
}

/** Wiki and skills seen through a gate: every method runs in a visible space (see methods.ts). */
import type { SkillsService } from '../skills/service.js';
import type { WikiService } from '../wiki.js';
import type { Gate } from './access.js';
import { type MethodRule, scopeMethods } from './methods.js';

const r = (at: number): MethodRule => ({ at, need: 'read' });
const w = (at: number): MethodRule => ({ at, need: 'write' });

const WIKI: { [K in keyof WikiService]: MethodRule } = {
  list: r(1),
  pages: r(1),
  read: r(1),
  history: r(1),
  search: r(1),
  write: w(2),
  remove: w(1),
};

const SKILLS: { [K in keyof SkillsService]: MethodRule } = {
  show: r(1),
  render: r(1),
  list: r(0),
  find: r(1),
  index: r(0),
  proposals: r(1),
  add: w(0),
  update: w(1),
  setStage: w(2),
  propose: w(0),
  accept: w(2),
  reject: w(2),
  addEvidence: w(2),
  removeEvidence: w(2),
  defineTest: w(3),
  recordCheck: w(3),
  recordOutcome: w(2),
  install: { at: 1, need: 'write', serverFiles: true },
  importDir: { at: 1, need: 'write', serverFiles: true },
  exportDir: { at: 1, need: 'read', serverFiles: true },
  suggest: { at: 1, need: 'read', serverFiles: true },
  loadBlock: r(1),
};

export const scopeWiki = (wiki: WikiService, gate: Gate, fallback: () => string): WikiService =>
  scopeMethods(wiki, WIKI, gate, fallback, 'wiki');

export const scopeSkills = (skills: SkillsService, gate: Gate, fallback: () => string): SkillsService =>
  scopeMethods(skills, SKILLS, gate, fallback, 'skills');

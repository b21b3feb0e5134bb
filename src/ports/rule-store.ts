import type { Rule, RuleScope } from '../core/rules.js';

/** Reads and writes inside one transaction that takes the write lock first. */
export interface RuleWriter {
  get(id: string): Rule | undefined;
  /** Insert, or replace the rule with this id (created_at is kept). */
  put(rule: Rule): void;
  /** Delete; false when there was nothing to delete. */
  remove(id: string): boolean;
}

/** Storage for standing rules. One implementation per backend. */
export interface RuleStore {
  get(id: string): Rule | undefined;
  /** Ids starting with `prefix`, at most `limit`. */
  idsWithPrefix(prefix: string, limit: number): string[];
  /** Rules in storage order (the service sorts), narrowed by scope kinds and values, and enabled. */
  list(filter?: { scopes?: RuleScope[]; kinds?: RuleScope['kind'][]; enabled?: boolean }): Rule[];
  /** Run `fn` in one IMMEDIATE transaction; never half-applied. */
  write<T>(fn: (w: RuleWriter) => T): T;
}

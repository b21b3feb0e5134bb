import type { Rule, RuleScope } from '../core/rules.js';

/** Reads and writes inside one write transaction. */
export interface RuleWriter {
  /** The rule, locked against other writers until the transaction ends (where the backend can). */
  get(id: string): Promise<Rule | undefined>;
  /** Insert, or replace the rule with this id (created_at is kept). */
  put(rule: Rule): Promise<void>;
  /** Delete; false when there was nothing to delete. */
  remove(id: string): Promise<boolean>;
}

/** Storage for standing rules: one implementation (storage/rule-store.ts) for every backend. */
export interface RuleStore {
  get(id: string): Promise<Rule | undefined>;
  /** Ids starting with `prefix`, at most `limit`. */
  idsWithPrefix(prefix: string, limit: number): Promise<string[]>;
  /** Rules in storage order (the service sorts), narrowed by scope kinds and values, and enabled. */
  list(filter?: { scopes?: RuleScope[]; kinds?: RuleScope['kind'][]; enabled?: boolean }): Promise<Rule[]>;
  /** Run `fn` in one write transaction; never half-applied. */
  write<T>(fn: (w: RuleWriter) => Promise<T>): Promise<T>;
}

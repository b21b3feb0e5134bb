/** Bound parameters of a statement being built: `add` binds a value and returns its placeholder. */
export class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

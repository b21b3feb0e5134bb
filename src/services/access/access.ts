/**
 * Who is calling and what they may touch: a scope (read, write, admin) and the spaces they see.
 * The gate answers the questions every scoped service asks, so the rules are written once:
 *   - a write needs write scope (FORBIDDEN otherwise);
 *   - a space named explicitly must be one the caller sees (FORBIDDEN: naming it is the ask);
 *   - a record of another space is reported NOT_FOUND, exactly like a missing one, so a key
 *     cannot even learn that it exists;
 *   - with no space given, a restricted caller works in the resolved default when it may see
 *     it, else in its first space.
 */
import { type KeyScope, scopeAllows } from '../../core/api-keys.js';
import { TapedeckError } from '../../core/errors.js';

export interface Access {
  /** `local` (a loopback caller without a key: the machine's owner) or `key:<id>`. */
  principal: string;
  scope: KeyScope;
  /** Spaces the caller sees; null for every space. */
  spaces: readonly string[] | null;
  /** May name files and folders on the server (skills install/import/export): in-process callers only, never HTTP. */
  serverFiles: boolean;
}

/** The machine's owner in-process (CLI, MCP stdio): everything. */
export const LOCAL_ACCESS: Access = { principal: 'local', scope: 'admin', spaces: null, serverFiles: true };

/**
 * The owner over HTTP (the loopback server, owner token): every space and scope, but never the
 * operations that write or read folders on the server's machine — those stay on the CLI, so no
 * request can make the server touch a path, whoever sends it.
 */
export const LOCAL_HTTP_ACCESS: Access = { ...LOCAL_ACCESS, serverFiles: false };

export interface Gate {
  readonly access: Access;
  readonly restricted: boolean;
  /** Throws FORBIDDEN unless the caller has `need` scope. */
  require(need: KeyScope, what: string): void;
  sees(space: string): boolean;
  /**
   * The space a call works in: an explicit one must be visible; none resolves to `fallback()`
   * when visible, else the caller's first space. Unrestricted callers get `explicit` back as is
   * (undefined lets the service resolve it).
   */
  space(explicit: string | undefined | null, fallback: () => string): string | undefined;
  /** FORBIDDEN for server paths unless the caller is in-process (the CLI). */
  serverFiles(what: string): void;
}

export const forbidden = (message: string) => new TapedeckError('FORBIDDEN', message);

export function createGate(access: Access): Gate {
  const allowed = access.spaces ? new Set(access.spaces) : null;
  const list = () => access.spaces?.join(', ') ?? '';
  return {
    access,
    restricted: allowed !== null,
    require(need, what) {
      if (!scopeAllows(access.scope, need))
        throw forbidden(`This key has ${access.scope} scope; ${what} needs ${need} scope`);
    },
    sees: (space) => allowed === null || allowed.has(space),
    space(explicit, fallback) {
      const given = explicit === null || explicit === '' ? undefined : explicit;
      if (!allowed) return given;
      if (given !== undefined) {
        if (!allowed.has(given)) throw forbidden(`This key cannot use space "${given}"; it sees ${list()}`);
        return given;
      }
      const d = fallback();
      return allowed.has(d) ? d : access.spaces![0];
    },
    serverFiles(what) {
      if (!access.serverFiles)
        throw forbidden(`${what} names files on the server, so it runs only from the CLI on that machine`);
    },
  };
}

/**
 * Spaces: isolated lanes for memories and space-scoped rules. Every call works in one space,
 * resolved as: an explicit `--space` > `TAPEDECK_SPACE` > the config `spaces` mapping of the
 * project (longest path prefix wins) > `default`. Nothing crosses spaces unless a caller asks
 * (`allSpaces`), and ids are global, so reading a record by id is always an explicit ask.
 */
import { isUnder, normalizeProjectPath } from '../core/paths.js';
import { checkSpaceName, DEFAULT_SPACE } from '../core/spaces.js';

export { checkSpaceName, DEFAULT_SPACE };

export interface SpaceSettings {
  /** TAPEDECK_SPACE, if set. */
  envSpace?: string;
  /** Project directory → default space for work in it (and below it). */
  mappings?: Readonly<Record<string, string>>;
}

export interface SpaceCall {
  /** Explicitly asked for (`--space`, the `space` argument of a tool). */
  space?: string;
  /** The project the call is about; used for the mapping. */
  project?: string;
  /** The caller's working directory, used for the mapping when no project is given. */
  cwd?: string;
}

export interface SpaceResolution {
  space: string;
  from: 'explicit' | 'env' | 'config' | 'default';
}

export interface SpaceService {
  /** The space a call works in (see the module comment for the order). */
  resolve(call?: SpaceCall): string;
  /** The same, with where the answer came from (for `--json` output and docs). */
  explain(call?: SpaceCall): SpaceResolution;
  /** Validate a name; throws INVALID_INPUT naming the problem. */
  check(name: string): string;
}

export function createSpaceService({ envSpace, mappings = {} }: SpaceSettings = {}): SpaceService {
  const entries = Object.entries(mappings)
    .map(([path, space]) => [normalizeProjectPath(path), space] as const)
    .sort((a, b) => b[0].length - a[0].length);

  function explain({ space, project, cwd }: SpaceCall = {}): SpaceResolution {
    if (space !== undefined && space !== null && space !== '')
      return { space: checkSpaceName(space), from: 'explicit' };
    if (envSpace) return { space: checkSpaceName(envSpace, 'TAPEDECK_SPACE'), from: 'env' };
    const where = project ?? cwd;
    if (where) {
      const p = normalizeProjectPath(where);
      const hit = entries.find(([root]) => isUnder(p, root));
      if (hit) return { space: hit[1], from: 'config' };
    }
    return { space: DEFAULT_SPACE, from: 'default' };
  }

  return {
    explain,
    resolve: (call) => explain(call).space,
    check: (name) => checkSpaceName(name),
  };
}

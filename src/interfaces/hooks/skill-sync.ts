/**
 * Session start: refresh the workspace's installed skills in a detached process
 * (`tapedeck skills sync`), started after the hook has answered, so the session never waits for
 * it; until it finishes the agent reads the local copies (each replaced whole, by a rename).
 * Nothing starts when the workspace has no `.agents/skills` folder.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../../app/package-path.js';
import type { Logger } from './log.js';
import type { HookSettings } from './settings.js';
import { spawnDetached } from './spawn-detached.js';

export function kickSkillSync(s: HookSettings, workspace: string | undefined, log: Logger): boolean {
  if (!workspace || s.env.TAPEDECK_HOOK_NO_SKILL_SYNC === '1') return false;
  if (!existsSync(join(workspace, '.agents', 'skills'))) return false;
  try {
    spawnDetached(
      process.execPath,
      // Not save.ts's TAPEDECK_BIN: that module loads the queue, which a session start does not need.
      [
        packagePath('bin', 'tapedeck.js'),
        'skills',
        'sync',
        '--quiet',
        '--workspace',
        workspace,
        '--home',
        s.tapedeckHome,
      ],
      s.env,
      (e) => log('error', `could not start the skill sync: ${e.message}`),
    );
    log('info', `skill sync started for ${workspace}`);
    return true;
  } catch (e) {
    log('error', `could not start the skill sync: ${(e as Error).message}`);
    return false;
  }
}

/**
 * `tapedeck keys …`: the API keys `tapedeck serve` accepts. Each command is a catalogue operation
 * (catalog/keys.ts: options, validation, the `--json` document); the words and the listing are
 * the CLI's own. `create` prints the key alone on stdout (to pipe it into a secret store) and the
 * rest on stderr.
 */
import type { Command } from 'commander';
import type { KeyView } from '../../../services/keys.js';
import { declareOpCommands } from '../catalog.js';

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '—');

function line(k: KeyView): string {
  const spaces = k.spaces.length ? k.spaces.join(',') : 'every space';
  const status = k.status === 'active' ? '' : ` ${k.status.toUpperCase()}`;
  return `${k.id}  ${k.prefix}…  ${k.scope.padEnd(5)}  ${spaces}  ${k.name}${status}  (created ${when(k.created_at)}, expires ${when(k.expires_at)}, last used ${when(k.last_used_at)})`;
}

export function registerKeysCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description('API keys for `tapedeck serve` (tapedeck keys <command> --help)');
  declareOpCommands(keys, [
    {
      op: 'keys.create',
      name: 'create',
      description: 'create a key and print it once (only a hash of it is stored)',
      flags: { spaces: '--space' },
      render: (k: KeyView & { key: string }) => ({
        out: k.key,
        err: `Created ${line(k)}\nThis is the only time the key is shown: store it now. Send it as "Authorization: Bearer <key>" or "X-Tapedeck-Api-Key: <key>".`,
      }),
    },
    {
      op: 'keys.list',
      name: 'list',
      description: 'list keys (never their secrets)',
      render: (r: { keys: KeyView[] }) =>
        r.keys.length
          ? r.keys.map(line).join('\n')
          : 'No API keys. Create one with: tapedeck keys create --name <name> [--space S] [--scope read|write|admin]',
    },
    {
      op: 'keys.revoke',
      name: 'revoke',
      description: 'revoke a key: it stops working at once, also on a running server',
      argument: { spec: '<id>', description: 'key id (from tapedeck keys list)', field: 'id' },
      render: (k: KeyView) => `Revoked ${line(k)}`,
    },
  ]);
}

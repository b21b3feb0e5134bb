/**
 * API keys as catalogue operations (admin scope): create (the key is in the answer, once), list
 * (never their secrets), revoke. Offered over HTTP and the CLI, not as MCP tools: an agent has no
 * business minting keys.
 */
import { z } from 'zod';
import { defineOp } from './define.js';

/** A key as every interface shows it: never its secret, only a prefix to recognise it by. */
export const KeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scope: z.enum(['read', 'write', 'admin']),
  spaces: z.array(z.string()).describe('Spaces it sees; empty: every space'),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  status: z.enum(['active', 'revoked', 'expired']),
});

export const keysCreate = defineOp({
  name: 'keys.create',
  summary: 'Create a key; `key` is shown in this answer only',
  description: 'Create an API key for the server; the key itself is in this answer only.',
  input: z.strictObject({
    name: z.string().min(1).max(100).describe('What the key is for (e.g. "ci", "laptop")'),
    spaces: z
      .array(z.string().min(1).max(64))
      .max(100)
      .optional()
      .describe('Spaces it sees (none: every space)'),
    scope: z
      .enum(['read', 'write', 'admin'])
      .optional()
      .describe('read (default), write, or admin (also manages keys)'),
    expires: z
      .string()
      .max(64)
      .optional()
      .describe('When it stops working: 30d, 12h, 2w or a date (default never)'),
  }),
  output: KeySchema.extend({ key: z.string().describe('The key: shown once, only a hash of it is stored') }),
  effect: 'write',
  need: 'admin',
  http: { method: 'post', path: '/v1/keys', status: 201 },
  mcp: false,
  async handler(s, input) {
    const { key, record } = await s.keys.create(input);
    return { key, ...record };
  },
});

export const keysList = defineOp({
  name: 'keys.list',
  summary: 'Keys (never their secrets)',
  description: 'The API keys, with their scope, spaces and status.',
  input: z.object({}),
  output: z.object({ keys: z.array(KeySchema) }),
  effect: 'read',
  need: 'admin',
  http: { method: 'get', path: '/v1/keys' },
  mcp: false,
  handler: async (s) => ({ keys: await s.keys.list() }),
});

export const keysRevoke = defineOp({
  name: 'keys.revoke',
  summary: 'Revoke a key (it stops working at once)',
  description: 'Revoke an API key: it stops working at once, also on a running server.',
  input: z.object({ id: z.string().min(1).max(100).describe('Key id (from keys list)') }),
  output: KeySchema,
  // Not undone, but not lost either: the key stays listed as revoked.
  effect: 'idempotent-write',
  need: 'admin',
  http: { method: 'delete', path: '/v1/keys/:id' },
  mcp: false,
  handler: (s, input) => s.keys.revoke(input.id),
});

/** Every keys operation. */
export const KEY_OPS = [keysCreate, keysList, keysRevoke] as const;

/**
 * The operation catalogue and its projections: every operation has its HTTP route (answering
 * with the output schema's shape), its OpenAPI entry (request and response schemas from the same
 * zod), its MCP tool (input schema, output schema, annotations) and, where the CLI offers it, a
 * command whose options are the input fields and whose `--json` is the output schema's document.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { z } from 'zod';
import type { Engine } from '../src/app/engine.js';
import { CATALOG } from '../src/catalog/index.js';
import { RuleSchema } from '../src/catalog/rules.js';
import { declareCatalogOptions } from '../src/interfaces/cli/catalog.js';
import { buildProgram } from '../src/interfaces/cli/main.js';
import { createHttpApp, type HttpApp } from '../src/interfaces/http/app.js';
import { openApiPath } from '../src/interfaces/http/openapi.js';
import type { RouteSpec } from '../src/interfaces/http/route.js';
import { buildMcpServer } from '../src/interfaces/mcp/server.js';
import { tapedeck } from './support/cli.js';
import { type TempHome, tempHome } from './support/home.js';

const TOKEN = `tdl_${'t'.repeat(43)}`;
const HEADERS = {
  host: '127.0.0.1:7420',
  authorization: `Bearer ${TOKEN}`,
  'content-type': 'application/json',
};

let h: TempHome;
let engine: Engine;
let app: HttpApp;
let client: Client;

before(async () => {
  h = tempHome();
  engine = h.engine();
  app = createHttpApp(engine, { clientAddress: () => '127.0.0.1', localToken: TOKEN, log: () => {} });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await buildMcpServer({ engine, refreshMs: 0, tools: 'full' }).connect(a);
  client = new Client({ name: 'test', version: '1' });
  await client.connect(b);
});

after(async () => {
  await client?.close();
  engine?.close();
  h?.cleanup();
});

const outputJson = (s: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

test('every operation has its HTTP route and OpenAPI entry, from its own schemas', async () => {
  const res = await app.request('/openapi.json', { headers: HEADERS });
  // biome-ignore lint/suspicious/noExplicitAny: the document is read field by field
  const doc = (await res.json()) as { paths: Record<string, Record<string, Record<string, any>>> };
  const routes = app.routes as readonly RouteSpec[];
  assert.ok(CATALOG.length >= 6);
  for (const op of CATALOG) {
    const route = routes.find((r) => r.method === op.http.method && r.path === op.http.path);
    assert.ok(route, `${op.name}: ${op.http.method} ${op.http.path} is served`);
    assert.equal(route.output, op.output, op.name);
    const entry = doc.paths[openApiPath(op.http.path)]?.[op.http.method];
    assert.ok(entry, `${op.name} is documented`);
    assert.equal(entry.summary, op.summary);
    assert.equal(entry['x-tapedeck-scope'], op.need);
    const status = String(op.http.status ?? 200);
    assert.deepEqual(
      entry.responses[status].content['application/json'].schema,
      outputJson(op.output),
      op.name,
    );
    // Every input field is a path parameter, a query parameter or a body property: none lost.
    const named = new Set([
      ...entry.parameters.map((p: { name: string }) => p.name),
      ...Object.keys(entry.requestBody?.content['application/json'].schema.properties ?? {}),
    ]);
    assert.deepEqual([...named].sort(), Object.keys(op.input.shape).sort(), `${op.name} input fields`);
  }
});

test('every operation offered over MCP is a tool with its input and output schema and honest hints', async () => {
  const { tools } = await client.listTools();
  for (const op of CATALOG.filter((o) => o.mcp !== false)) {
    const tool = tools.find((t) => t.name === op.name.replace('.', '_'));
    assert.ok(tool, `${op.name} is a tool`);
    const extra = op.effect === 'destructive' ? ['confirm'] : [];
    assert.deepEqual(
      Object.keys(tool.inputSchema.properties ?? {}).sort(),
      [...Object.keys(op.input.shape), ...extra].sort(),
      op.name,
    );
    assert.deepEqual(
      Object.keys(tool.outputSchema?.properties ?? {}).sort(),
      Object.keys(op.output.shape).sort(),
    );
    assert.equal(tool.annotations?.readOnlyHint, op.effect === 'read', op.name);
    assert.equal(tool.annotations?.destructiveHint, op.effect === 'destructive', op.name);
  }
});

test('the CLI commands of the catalogue take every input field as an option or their argument', async () => {
  const program = buildProgram();
  await declareCatalogOptions();
  for (const op of CATALOG.filter((o) => o.name !== 'rules.get')) {
    const [feature, verb] = op.name.split('.');
    const cmd = program.commands.find((c) => c.name() === feature)?.commands.find((c) => c.name() === verb);
    assert.ok(cmd, `${op.name} has a command`);
    const longs = cmd.options.map((o) => o.long);
    const args = cmd.registeredArguments.map((a) => a.name());
    for (const field of Object.keys(op.input.shape)) {
      const flag = `--${field.replaceAll('_', '-')}`;
      const covered =
        longs.includes(flag) ||
        longs.includes(flag.replace(/s$/, '')) || // a list as a repeatable flag: --space for spaces
        args.includes(field) ||
        (field === 'enabled' && (longs.includes('--disabled') || longs.includes('--disable')));
      assert.ok(covered, `${op.name}: ${field} reaches the CLI (${longs.join(' ')})`);
    }
    if (op.effect === 'destructive') assert.ok(longs.includes('--yes'), `${op.name} asks for --yes`);
  }
});

test('one document on every interface: HTTP, MCP and CLI --json answer the output schema', async () => {
  const viaHttp = await app.request('/v1/rules', {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ body: 'Run the linter first', scope: 'agent:codex', note: 'from the review' }),
  });
  assert.equal(viaHttp.status, 201);
  const added = RuleSchema.strict().parse(await viaHttp.json());
  const viaMcp = await client.callTool({ name: 'rules_list', arguments: {} });
  const listed = z
    .object({ rules: z.array(RuleSchema.strict()) })
    .strict()
    .parse(viaMcp.structuredContent);
  assert.deepEqual(listed.rules, [added]);
  const cli = tapedeck(['rules', 'list', '--json'], h.env);
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual(
    z
      .object({ rules: z.array(RuleSchema.strict()) })
      .strict()
      .parse(cli.json()).rules,
    [added],
  );

  // Bad input is refused with the same words everywhere (the schema's, path first).
  const bad = await app.request('/v1/rules', {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ body: 'x', priority: 5000 }),
  });
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { error: { message: string } }).error.message, /^body\.priority: /);
  const badCli = tapedeck(['rules', 'add', 'x', '--priority', '5000', '--json'], h.env);
  assert.equal(badCli.status, 2);
  assert.match(badCli.json().error.message, /^priority: Too big/);
  const badMcp = await client.callTool({ name: 'rules_add', arguments: { body: 'x', priority: 5000 } });
  assert.equal(badMcp.isError, true);
  const noConfirm = await client.callTool({ name: 'rules_remove', arguments: { id: added.id } });
  assert.equal(noConfirm.isError, true);
  assert.equal(
    (await engine.rules.list({ allSpaces: true })).rules.length,
    1,
    'nothing removed without confirm',
  );
});

test("the worked example: a rule's owner reaches every interface, export and import", async () => {
  const viaCli = tapedeck(
    ['rules', 'add', 'Deploys need a second pair of eyes', '--owner', '@platform', '--json'],
    h.env,
  );
  assert.equal(viaCli.status, 0, viaCli.stderr);
  const rule = viaCli.json();
  assert.equal(rule.owner, '@platform');
  const patched = await app.request(`/v1/rules/${rule.id}`, {
    method: 'PATCH',
    headers: HEADERS,
    body: JSON.stringify({ owner: 'ana@shop.dev' }),
  });
  assert.equal(((await patched.json()) as { owner: string }).owner, 'ana@shop.dev');
  const viaMcp = await client.callTool({ name: 'rules_update', arguments: { id: rule.id, owner: '@sre' } });
  assert.equal((viaMcp.structuredContent as { owner: string }).owner, '@sre');
  const doc = (await (await app.request('/openapi.json', { headers: HEADERS })).json()) as {
    paths: Record<
      string,
      Record<string, { requestBody: { content: Record<string, { schema: { properties: object } }> } }>
    >;
  };
  assert.ok('owner' in doc.paths['/v1/rules'].post.requestBody.content['application/json'].schema.properties);

  const dir = `${h.home}/export-owner`;
  await engine.portability.export(dir, { allSpaces: true });
  const other = tempHome();
  const e2 = other.engine();
  try {
    await e2.portability.import(dir, {});
    assert.equal((await e2.rules.get(rule.id)).owner, '@sre', 'exported and imported');
  } finally {
    e2.close();
    other.cleanup();
  }
});

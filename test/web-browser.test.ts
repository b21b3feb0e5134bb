/**
 * The web page end to end, in Debian's Chromium driven by playwright-core: a fresh home's
 * `tapedeck ui` (a real child process) starts a server over the bundled sample sessions and
 * prints the link with the owner token; the browser then searches and opens the hit's step,
 * walks the timeline to a day and a session, saves a step range as a memory, edits a memory and
 * finds it by search, and is refused without the token. Every request the browser makes is
 * recorded: none may leave the server the page came from. Screenshots of each page go to
 * docs/web/. Without /usr/bin/chromium the test skips — unless CI=true, where that is a failure.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { tapedeck } from './support/cli.js';
import { type TempHome, tempHome } from './support/home.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '..', 'docs', 'web');
const present = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
const skip =
  !present && !inCi ? `${CHROMIUM} is not installed (apt-get install chromium); CI requires it` : false;

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('the web page in a real browser', { skip }, () => {
  let h: TempHome;
  let base: string;
  let url: string;
  let token: string;
  let pid: number | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let profile: string;
  const requests: string[] = [];
  const pageErrors: string[] = [];

  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field
  const api = async (path: string, init: RequestInit = {}): Promise<{ status: number; body: any }> => {
    const r = await fetch(`${base}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(init.headers ?? {}),
      },
    });
    return { status: r.status, body: await r.json() };
  };
  const go = async (hash: string) => {
    // Runs in the page (DOM globals are not in this file's types). Via another view, so the
    // target renders afresh even when it is the current one.
    await page.evaluate(`location.hash = '#/search'`);
    await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  };

  before(async () => {
    if (!present)
      assert.fail(`CI=true and ${CHROMIUM} is missing: install chromium (apt-get install chromium)`);
    h = tempHome();
    const port = await freePort();
    const r = tapedeck(['ui', '--port', String(port), '--no-open', '--json'], h.env);
    assert.equal(r.status, 0, r.stderr);
    const out = r.json();
    pid = out.pid;
    assert.equal(out.started, true);
    assert.equal(out.demo, true, 'a fresh home shows the bundled sample sessions');
    url = out.url;
    const m = /^(http:\/\/127\.0\.0\.1:\d+)\/#token=(.+)$/.exec(url);
    assert.ok(m, `the link carries the token in the fragment: ${url}`);
    base = m[1];
    token = decodeURIComponent(m[2]);

    const { chromium } = await import('playwright-core');
    profile = mkdtempSync(join(tmpdir(), 'tapedeck-chromium-'));
    // A fresh profile per run: nothing cached, no extensions, no saved state.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
      viewport: { width: 1200, height: 860 },
      timezoneId: 'UTC',
      locale: 'en-GB',
    });
    context.on('request', (req) => requests.push(req.url()));
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  after(async () => {
    await context?.close();
    if (pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    if (profile) rmSync(profile, { recursive: true, force: true });
    h?.cleanup();
  });

  test('a second `tapedeck ui` reuses the running server', () => {
    const r = tapedeck(['ui', '--port', new URL(base).port, '--no-open', '--json'], h.env);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.json().started, false);
    assert.equal(r.json().url, url);
  });

  test('the page is public, the data needs the token', async () => {
    const pageRes = await fetch(`${base}/`);
    assert.equal(pageRes.status, 200);
    assert.match(pageRes.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.equal((await fetch(`${base}/assets/app.js`)).status, 200);
    const refused = await fetch(`${base}/v1/search?q=redis`);
    assert.equal(refused.status, 401, 'a data route without the token is refused');
    assert.equal(
      (await fetch(`${base}/v1/threads`, { headers: { authorization: 'Bearer tdl_wrong' } })).status,
      401,
    );

    // The browser without the token: the page asks for it, and its own API call is refused.
    await page.goto(`${base}/#/search`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const status = await page.evaluate('fetch("/v1/threads").then((r) => r.status)');
    assert.equal(status, 401);
  });

  test('search as you type, then open the hit at its step', async () => {
    await page.goto(url);
    // The token leaves the address bar (and the history) at once.
    while ((await page.evaluate('location.hash')) !== '#/search') await new Promise((r) => setTimeout(r, 20));
    const box = page.getByLabel('Search sessions');
    await box.pressSequentially('redis cache', { delay: 20 });
    // Results of the whole query (earlier keystrokes' results may show for a moment).
    await page.locator('.hit mark', { hasText: /redis/i }).first().waitFor();
    const first = page.locator('.hit').first();
    assert.match((await first.innerText()).toLowerCase(), /redis|cache/);
    await page.locator('.explain summary').first().click();
    // The ranking's components, not just the score.
    const why = first.locator('.explain table');
    await why.waitFor();
    assert.match(await why.innerText(), /lexical/);
    await page.screenshot({ path: join(SHOTS, 'search.png') });

    const href = (await first.locator('a.hit-title').getAttribute('href'))!;
    const step = Number(/step=(\d+)/.exec(href)![1]);
    await first.locator('a.hit-title').click();
    const selected = page.locator('li.step.selected');
    await selected.waitFor();
    assert.equal(Number(await selected.getAttribute('data-step')), step, 'the viewer opens at the hit step');
    assert.match(await selected.locator('.prov').innerText(), /\.jsonl:\d+$/, 'provenance shows file:line');
    await context!.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await selected.getByRole('button', { name: `Copy link to step ${step}` }).click();
    await page.locator('#toast', { hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate('navigator.clipboard.readText()');
    assert.match(String(copied), new RegExp(`^tapedeck://thread/.+#${step}$`));
    await page.screenshot({ path: join(SHOTS, 'session.png') });
  });

  test('keyboard: j/k move, Shift extends, s saves the range as a memory with provenance', async () => {
    const thread = (await api('/v1/threads?agent=codex&limit=1')).body.threads[0];
    await go(`#/session/${encodeURIComponent(thread.id)}`);
    await page.locator('li.step').first().waitFor();
    // Tool calls and outputs start folded.
    const folded = page.locator('li.step details');
    if ((await folded.count()) > 0)
      assert.equal(await folded.first().evaluate((d) => (d as unknown as { open: boolean }).open), false);
    await page.keyboard.press('j');
    await page.keyboard.press('Shift+J');
    await page.keyboard.press('Shift+J');
    const steps = await page
      .locator('li.step.selected')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-step'))));
    assert.equal(steps.length, 3);
    await page.keyboard.press('k'); // a plain move collapses the range
    assert.equal(await page.locator('li.step.selected').count(), 1);
    await page.keyboard.press('Shift+J');
    await page.keyboard.press('Shift+J');
    await page.keyboard.press('s');
    const form = page.getByRole('form', { name: 'Save as memory' });
    await form.waitFor();
    await form.getByLabel('Title (optional)').fill('Codex session excerpt');
    await form.getByRole('button', { name: 'Save memory' }).click();
    await page.getByText('Saved as').waitFor();
    const saved = (await api('/v1/memories/search?q=Codex%20session%20excerpt')).body.hits[0];
    assert.equal(saved.provenance.thread, thread.id);
    assert.equal(saved.provenance.step_from, steps[1]);
    assert.ok(saved.provenance.step_to > saved.provenance.step_from);
  });

  test('timeline: a day, then one of its sessions', async () => {
    await go('#/timeline');
    const bars = page.locator('g.bar');
    await bars.first().waitFor();
    assert.ok((await bars.count()) >= 5, 'the samples span several days');
    await page.screenshot({ path: join(SHOTS, 'timeline.png') });
    const date = (await bars.first().getAttribute('data-date'))!;
    await bars.first().click();
    await page.getByRole('heading', { name: `Sessions on ${date}` }).waitFor();
    const link = page.locator('.day .sessions a').first();
    await link.waitFor();
    const title = await link.innerText();
    await page.screenshot({ path: join(SHOTS, 'timeline-day.png') });
    await link.click();
    await page.locator('li.step').first().waitFor();
    assert.equal(await page.locator('.session-head h1').innerText(), title);
  });

  test('timeline by keyboard: one tab stop, arrows move between days, Enter opens the day', async () => {
    await go('#/timeline');
    const stops = page.locator('g.bar[tabindex="0"]');
    await stops.first().waitFor();
    assert.equal(await stops.count(), 1, 'the chart is a single tab stop');
    await stops.first().focus();
    await page.keyboard.press('ArrowLeft');
    const focused = page.locator('g.bar:focus');
    const date = (await focused.getAttribute('data-date'))!;
    assert.equal(await page.locator('g.bar[tabindex="0"]').getAttribute('data-date'), date);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Sessions on ${date}` }).waitFor();
  });

  test('edit a memory and find the edit by search; forget and restore it', async () => {
    const added = await api('/v1/memories', {
      method: 'POST',
      body: JSON.stringify({ content: 'Deploys go through the blue-green pipeline', labels: ['deploy'] }),
    });
    assert.equal(added.status, 201);
    await go('#/knowledge/memories');
    const item = page.locator(`li.memory[data-id="${added.body.id}"]`);
    await item.waitFor();
    await item.getByRole('button', { name: 'Edit' }).click();
    const edit = item.getByRole('form', { name: 'Edit memory' });
    await edit
      .getByLabel('Content')
      .fill('Deploys go through the canary pipeline, watched by zebrafish alerts');
    await edit.getByRole('button', { name: 'Save' }).click();
    await item.getByText('zebrafish alerts').waitFor();

    await page.getByLabel('Search memories').fill('zebrafish');
    await page.locator('li.memory', { hasText: 'zebrafish' }).waitFor();
    assert.match(await page.locator('li.memory').first().innerText(), /zebrafish/, 'the edit ranks first');
    await page.screenshot({ path: join(SHOTS, 'knowledge.png') });

    await item.getByRole('button', { name: 'Forget' }).click();
    await item.waitFor({ state: 'detached' });
    assert.equal((await api(`/v1/memories/${added.body.id}`)).body.status, 'forgotten');
    await page.getByLabel('Search memories').fill('');
    await page.getByLabel('Status').selectOption('forgotten');
    await item.getByRole('button', { name: 'Restore' }).click();
    await page.locator(`li.memory[data-id="${added.body.id}"]`).waitFor({ state: 'detached' });
    assert.equal((await api(`/v1/memories/${added.body.id}`)).body.status, 'active');
  });

  test('supersede keeps the history, and "as of" shows what was valid then', async () => {
    const old = (
      await api('/v1/memories', {
        method: 'POST',
        body: JSON.stringify({ content: 'The staging database is db-old' }),
      })
    ).body;
    const before = new Date().toISOString().slice(0, 10);
    await go('#/knowledge/memories');
    const item = page.locator(`li.memory[data-id="${old.id}"]`);
    await item.getByRole('button', { name: 'Supersede' }).click();
    await item.getByLabel('New content').fill('The staging database is db-new');
    await item.getByRole('button', { name: 'Supersede' }).click();
    const current = page.locator('li.memory', { hasText: 'db-new' });
    await current.waitFor();
    assert.equal(
      await page.locator('li.memory', { hasText: 'db-old' }).count(),
      0,
      'the old one left the active list',
    );
    await current.getByRole('button', { name: 'History' }).click();
    const history = current.getByRole('list', { name: 'History' });
    await history.waitFor();
    assert.match(await history.innerText(), /active.*db-new[\s\S]*superseded.*db-old/);
    const successor = (await api(`/v1/memories/${old.id}`)).body.superseded_by;
    assert.ok(successor, 'the API agrees: the old memory names its successor');
    // Today's as-of is after the change; the old text shows under status "superseded".
    await page.getByLabel('As of').fill(before);
    await page.locator('li.memory', { hasText: 'db-new' }).waitFor();
    await page.getByLabel('As of').fill('');
    await page.getByLabel('Status').selectOption('superseded');
    await page.locator(`li.memory[data-id="${old.id}"]`, { hasText: 'db-old' }).waitFor();
  });

  test('skills show their trust badge and evidence links into the session', async () => {
    const thread = (await api('/v1/threads?agent=gemini-cli&limit=1')).body.threads[0];
    const steps = (await api(`/v1/threads/${encodeURIComponent(thread.id)}?limit=5`)).body.steps;
    const step = steps[1].step;
    await api('/v1/skills', {
      method: 'POST',
      body: JSON.stringify({
        name: 'fix-cors',
        description: 'Fix a CORS preflight failure',
        body: '1. Reproduce the OPTIONS request',
      }),
    });
    const ev = await api('/v1/skills/fix-cors/evidence', {
      method: 'POST',
      body: JSON.stringify({ uris: [`tapedeck://thread/${thread.id}#${step}`], note: 'where it worked' }),
    });
    assert.equal(ev.status, 200);
    await go('#/knowledge/skills');
    const card = page.locator('.skills li', { hasText: 'fix-cors' });
    await card.waitFor();
    assert.match(await card.locator('.badge').first().innerText(), /^(Draft|Checked|Proven)$/);
    await card.locator('summary').click();
    const link = card.getByRole('link', { name: `tapedeck://thread/${thread.id}#${step}` });
    await link.click();
    const selected = page.locator('li.step.selected');
    await selected.waitFor();
    assert.equal(Number(await selected.getAttribute('data-step')), step);
  });

  test('a briefing section is edited in place', async () => {
    await go('#/knowledge/briefing');
    const edit = page.getByRole('button', { name: 'Edit Focus' });
    await edit.click();
    await page.getByLabel('Focus').fill('- ship the web page');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('- ship the web page').waitFor();
    const wm = (await api('/v1/working-memory')).body;
    const focus = wm.sections.find((x: { name: string }) => x.name === 'focus');
    assert.equal(focus.edited, true);
    assert.match(focus.markdown, /ship the web page/);
  });

  test('the other knowledge tabs and the status page render what the API holds', async () => {
    await api('/v1/rules', {
      method: 'POST',
      body: JSON.stringify({ title: 'Use pnpm', body: 'Always pnpm, never npm', scope: 'global' }),
    });
    await go('#/knowledge/rules');
    await page.getByRole('heading', { name: 'global' }).waitFor();
    await page.getByText('Always pnpm, never npm').waitFor();
    await go('#/knowledge/briefing');
    await page
      .getByRole('button', { name: /^Edit / })
      .first()
      .waitFor();
    await go('#/knowledge/context');
    await page.getByText('What the agent will read').waitFor();
    assert.match(await page.locator('pre.text').innerText(), /Use pnpm/);
    await go('#/status');
    const agents = page.locator('table tbody tr');
    await agents.first().waitFor();
    assert.equal(await agents.count(), 4, 'one row per agent with sessions');
    await page.getByRole('heading', { name: 'Archive and retention' }).waitFor();
    assert.match(
      await page.locator('.facts').nth(1).innerText(),
      /Archive\s+\d+ transcripts, [\d.]+ MB on disk/,
    );
    await page.getByText('Claude Code retention').waitFor();
    await page.screenshot({ path: join(SHOTS, 'status.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await go('#/search?q=flaky%20test');
    await page.locator('.hit').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'search-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('the page made no request outside its server, and threw no error', () => {
    assert.ok(requests.length > 10);
    const outside = requests.filter((u) => !u.startsWith(`${base}/`));
    assert.deepEqual(outside, []);
    assert.deepEqual(pageErrors, []);
  });
});

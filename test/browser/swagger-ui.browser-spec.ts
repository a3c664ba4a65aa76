import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { TEST_ADMIN_TOKEN, TEST_SECRET_KEY } from '../helpers/app';
import { assertBuilt, type BinderyProcess, freePort, spawnBindery } from '../helpers/processes';

/**
 * The Swagger UI at /docs and CORS, in Debian's Chromium (headless): groups with descriptions,
 * "Authorize" with a token, "Try it out" on two operations, operationId and x-bindery-access
 * visible, a screenshot (kept by CI); and a page of another origin calling the API, allowed by
 * CORS_ORIGINS and refused without it. Skipped when no Chromium is installed (.ci/run installs
 * it); CHROMIUM_PATH names another binary, SWAGGER_SCREENSHOT another screenshot file.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = process.env.SWAGGER_SCREENSHOT ?? '.ci/out/swagger-ui.png';
const HAS_CHROMIUM = existsSync(CHROMIUM);
if (!HAS_CHROMIUM) {
  process.stderr.write(
    `Browser tests skipped: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set CHROMIUM_PATH.\n`,
  );
}
const describeWithChromium = HAS_CHROMIUM ? describe : describe.skip;

/** `node dist/src/main.js` on an in-memory embedded database; resolves once it is ready. */
async function startBindery(settings: Record<string, string>): Promise<BinderyProcess> {
  const port = await freePort();
  const bindery = spawnBindery(
    'api',
    'bindery',
    {
      DATA_DIR: 'memory',
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      SECRET_KEY: TEST_SECRET_KEY,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      ...settings,
    },
    { port, readyWithinMs: 90_000 },
  );
  await bindery.ready;
  return bindery;
}

async function call<T>(origin: string, method: string, path: string, token: string, body?: object) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * A page of its own origin whose script calls GET /v1/user on the API named in its query, with
 * an Authorization header (so the browser sends a preflight first), and writes what happened.
 */
const CALLER_PAGE = `<!doctype html><html><body><pre id="result">pending</pre><script>
const query = new URLSearchParams(location.search);
fetch(query.get('api') + '/v1/user', { headers: { Authorization: 'Bearer ' + query.get('token') } })
  .then(async (r) => { document.getElementById('result').textContent = 'answered ' + r.status + ' ' + (await r.json()).email; })
  .catch((e) => { document.getElementById('result').textContent = 'refused ' + e.name; });
</script></body></html>`;

describeWithChromium('Swagger UI and CORS in a browser', () => {
  let pageServer: Server;
  let pageOrigin: string;
  let withCors: BinderyProcess | undefined;
  let withoutCors: BinderyProcess | undefined;
  let browser: Browser;
  let token: string;
  let organizationId: string;

  beforeAll(async () => {
    assertBuilt();
    pageServer = createServer((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(CALLER_PAGE);
    });
    const pagePort = await freePort();
    await new Promise<void>((resolve) => pageServer.listen(pagePort, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${pagePort}`;
    [withCors, withoutCors, browser] = await Promise.all([
      startBindery({ CORS_ORIGINS: pageOrigin }),
      startBindery({}),
      chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      }),
    ]);
    const created = await call<{ token: string }>(
      withCors.origin!,
      'POST',
      '/v1/admin/users',
      TEST_ADMIN_TOKEN,
      { email: 'ada@example.com', displayName: 'Ada Lovelace' },
    );
    token = created.token;
    organizationId = (
      await call<{ id: string }>(withCors.origin!, 'POST', '/v1/orgs', token, {
        title: 'Acme Docs',
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([withCors?.stop(), withoutCors?.stop()]);
    await new Promise((resolve) => pageServer?.close(resolve));
  });

  /** Opens an operation, runs "Try it out" → Execute, and answers the response shown. */
  async function tryItOut(page: Page, tag: string, operationId: string, fill = {}) {
    const operation = page.locator(`#operations-${tag}-${operationId}`);
    await operation.locator('.opblock-summary').first().click();
    await operation.locator('button.try-out__btn').click();
    for (const [name, value] of Object.entries(fill)) {
      await operation.locator(`tr[data-param-name="${name}"] input`).fill(String(value));
    }
    await operation.locator('button.execute').click();
    const live = operation.locator('.live-responses-table .response');
    await live.first().waitFor();
    return {
      operation,
      status: (await live.locator('.response-col_status').first().innerText()).trim(),
      body: await live.locator('.response-col_description pre').first().innerText(),
    };
  }

  it('shows described groups, authorizes with a token and runs two operations', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${withCors!.origin}/docs`);

    // Groups in GitBook's order, each with its description; Bindery's own marked as such.
    const groups = page.locator('.opblock-tag-section h3.opblock-tag');
    await groups.first().waitFor();
    expect(await groups.count()).toBeGreaterThan(40);
    expect(await groups.first().getAttribute('data-tag')).toBe('organizations');
    const users = page.locator('h3.opblock-tag[data-tag="users"]');
    await expect(users.innerText()).resolves.toContain('The authenticated user');
    const admin = page.locator('h3.opblock-tag[data-tag="admin"]');
    await expect(admin.innerText()).resolves.toContain('Bindery only');
    await expect(page.locator('.information-container').innerText()).resolves.toContain(
      'Getting started',
    );

    // Authorize: the token under the `user` scheme.
    await page.locator('.auth-wrapper button.authorize').click();
    const scheme = page.locator('.auth-container').filter({ hasText: 'user (http, Bearer)' });
    await scheme.locator('input').fill(token);
    await scheme.locator('button.authorize').click();
    await page.locator('button.btn-done').first().click();

    // Expanding a group shows its operations.
    await users.click();
    const me = await tryItOut(page, 'users', 'getAuthenticatedUser');
    expect(me.status).toBe('200');
    expect(JSON.parse(me.body)).toMatchObject({ object: 'user', email: 'ada@example.com' });
    await expect(me.operation.locator('.opblock-summary-operation-id').innerText()).resolves.toBe(
      'getAuthenticatedUser',
    );
    const extensions = await me.operation.innerText();
    expect(extensions).toContain('x-bindery-access');
    expect(extensions).toContain('any user');

    await page.locator('h3.opblock-tag[data-tag="organizations"]').click();
    const org = await tryItOut(page, 'organizations', 'getOrganizationById', { organizationId });
    expect(org.status).toBe('200');
    expect(JSON.parse(org.body)).toMatchObject({ id: organizationId, title: 'Acme Docs' });
    await expect(org.operation.innerText()).resolves.toContain('organization:view');

    // The screenshot shows the groups and their operations: the two answers are folded away.
    for (const done of [me, org]) await done.operation.locator('.opblock-summary').first().click();
    mkdirSync(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lets a page of another origin call the API when CORS_ORIGINS lists it, not otherwise', async () => {
    const page = await browser.newPage();
    const run = async (api: string) => {
      const query = new URLSearchParams({ api, token });
      await page.goto(`${pageOrigin}/?${query.toString()}`);
      const result = page.locator('#result');
      await result.filter({ hasNotText: 'pending' }).waitFor();
      return result.innerText();
    };
    await expect(run(withCors!.origin!)).resolves.toBe('answered 200 ada@example.com');
    await expect(run(withoutCors!.origin!)).resolves.toBe('refused TypeError');
    await page.close();
  });
});

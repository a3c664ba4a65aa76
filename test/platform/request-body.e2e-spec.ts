import { connect, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { createTestApp, TestApp } from '../helpers/app';
import type { TestOrganization } from '../helpers/factories';

/**
 * How Bindery reads what a client sends, for every route: bodies only after authentication and
 * access, within the route's limit, decompressed when they say so; text PostgreSQL cannot store
 * refused in any body, path or query; slow clients cut off.
 */

const expectError = (res: { status: number; body: unknown }, status: number) =>
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { error: { code: status, message: expect.any(String) } },
  });

/** Opens a raw connection to the app's server (listening on 127.0.0.1). */
async function rawConnection(server: Server): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, answer };
}

async function listening(t: TestApp): Promise<void> {
  await new Promise<void>((resolve) => t.server.listen(0, '127.0.0.1', resolve));
}

describe('request bodies, paths and queries', () => {
  let t: TestApp;
  let org: TestOrganization;
  let space: string;

  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT: '1kb', BODY_LIMIT_LARGE: '64kb' });
    org = await t.factories.organization();
    space = (await t.factories.space(org, { title: 'Handbook' })).id;
    await t.factories.changeRequest(org, space, { subject: 'Draft' });
  });
  afterAll(() => t.close());

  describe('without a valid token', () => {
    it.each([
      ['invalid JSON', '{"title":', {}],
      ['gzip that is not gzip', 'not gzip', { 'Content-Encoding': 'gzip' }],
      ['br that is not br', 'not br', { 'Content-Encoding': 'br' }],
      ['an unknown coding', '{}', { 'Content-Encoding': 'x-unknown' }],
      ['a body over the limit', JSON.stringify({ title: 'x'.repeat(4096) }), {}],
      ['NUL in a field', '{"title":"a\\u0000b"}', {}],
    ])('answers %s with 401', async (_label, body, headers) => {
      for (const token of [undefined, 'not-a-token']) {
        let test = request(t.server).post('/v1/orgs').set('Content-Type', 'application/json');
        if (token) test = test.set('Authorization', `Bearer ${token}`);
        for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
        expectError(await test.send(body), 401);
      }
    });

    it('answers before reading the body: 401 while the client is still sending it', async () => {
      await listening(t);
      try {
        const { socket, answer } = await rawConnection(t.server);
        socket.write(
          'POST /v1/orgs HTTP/1.1\r\nHost: bindery.test\r\nContent-Type: application/json\r\n' +
            'Content-Length: 5000000\r\n\r\n{"title":"',
        );
        // The rest of the 5 MB never comes: the answer must not wait for it.
        const first = await Promise.race([
          new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString()))),
          answer,
        ]);
        expect(first).toMatch(/^HTTP\/1\.1 401 /);
        socket.destroy();
      } finally {
        t.server.close();
      }
    });
  });

  describe('with a token', () => {
    const post = (headers: Record<string, string>, body: string | Buffer) => {
      let test = org.owner.client.post('/v1/orgs').set('Content-Type', 'application/json');
      for (const [name, value] of Object.entries(headers)) test = test.set(name, value);
      // superagent would send a Buffer as JSON ({"type":"Buffer",...}): send its bytes.
      return test.serialize((raw: unknown) => raw as string).send(body);
    };

    it('reads gzip and br bodies', async () => {
      const gzipped = await post(
        { 'Content-Encoding': 'gzip' },
        gzipSync(JSON.stringify({ title: 'Zipped' })),
      ).expect(201);
      expect(gzipped.body.title).toBe('Zipped');
      const brotli = await post(
        { 'Content-Encoding': 'br' },
        brotliCompressSync(JSON.stringify({ title: 'Brotli' })),
      ).expect(201);
      expect(brotli.body.title).toBe('Brotli');
    });

    it.each([
      ['gzip', 'gzip'],
      ['deflate', 'deflate'],
      ['br', 'br'],
    ])('answers a body that is not %s with 400 naming the coding', async (_label, coding) => {
      const res = await post({ 'Content-Encoding': coding }, Buffer.from('plain text'));
      expectError(res, 400);
      expect(res.body.error.message).toContain(`"${coding}"`);
    });

    it('answers an unknown coding with 415', async () => {
      const res = await post({ 'Content-Encoding': 'x-unknown' }, '{"title":"Docs"}');
      expectError(res, 415);
      expect(res.body.error.message).toMatch(/Content-Encoding "x-unknown" is not supported/);
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded'])(
      'answers a %s body with 415',
      async (type) => {
        const res = await post({ 'Content-Type': type }, 'title=Docs');
        expectError(res, 415);
        expect(res.body.error.message).toMatch(/must be JSON/);
      },
    );

    it('counts the limit after decompression (a gzip bomb is a 413)', async () => {
      const bomb = gzipSync(JSON.stringify({ title: 'x'.repeat(10 * 1024 * 1024) }));
      expect(bomb.length).toBeLessThan(64 * 1024);
      expectError(await post({ 'Content-Encoding': 'gzip' }, bomb), 413);
    });
  });

  describe('body limits per route', () => {
    const markdown = (size: number) => ({
      changes: [
        { operation: 'insert_page', title: 'Big', document: { markdown: 'x'.repeat(size) } },
      ],
    });

    it('refuses an ordinary body over BODY_LIMIT with 413', async () => {
      const res = await org.owner.client.post('/v1/orgs', { title: 'x'.repeat(2048) });
      expectError(res, 413);
      expect(res.body.error.message).toContain('1024 bytes');
    });

    it('takes a content write over BODY_LIMIT, up to BODY_LIMIT_LARGE', async () => {
      const path = `/v1/spaces/${space}/change-requests/1/content`;
      const res = await org.owner.client.post(path, markdown(8 * 1024)).expect(200);
      expect(res.body.object).toBe('change-request');
      expectError(await org.owner.client.post(path, markdown(100 * 1024)), 413);
    });
  });

  describe('text PostgreSQL cannot store', () => {
    it.each([
      ['NUL', '{"title":"a\\u0000b"}', 'title must not contain the character U+0000.'],
      [
        'a lone surrogate',
        '{"title":"a\\ud800b"}',
        'title must be valid Unicode text (it holds a lone surrogate).',
      ],
      [
        'NUL in a property name',
        '{"title":"Docs","\\u0000":1}',
        'Property names in the request body must not contain the character U+0000.',
      ],
    ])('refuses %s in a body with 400 naming the field', async (_label, body, message) => {
      const res = await org.owner.client
        .post('/v1/orgs')
        .set('Content-Type', 'application/json')
        .send(body);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 400, message } },
      });
    });

    it('refuses NUL nested deep in a body, naming its path', async () => {
      const res = await org.owner.client.post(`/v1/spaces/${space}/change-requests/1/content`, {
        changes: [{ operation: 'insert_page', title: 'T', document: { markdown: 'a\u0000' } }],
      });
      expectError(res, 400);
      expect(res.body.error.message).toBe(
        'changes.0.document.markdown must not contain the character U+0000.',
      );
    });

    it('refuses NUL in a path with 400', async () => {
      for (const path of [`/v1/orgs/%00`, `/v1/spaces/${space}%00`, `/v1/spaces/a%00b/content`]) {
        const res = await org.owner.client.get(path);
        expectError(res, 400);
        expect(res.body.error.message).toMatch(/path must not contain the character U\+0000/);
      }
    });

    it('refuses NUL in a list filter with 400 naming it, and keeps serving', async () => {
      const filters = [
        `/v1/spaces/${space}/change-requests?creator=%00`,
        `/v1/spaces/${space}/change-requests?contributor=a%00`,
        `/v1/spaces/${space}/change-requests?requestedReviewer=%00`,
        `/v1/orgs/${org.id}/change-requests?conversationsIssuesCluster=%00`,
        `/v1/orgs/${org.id}/conversations?source=%00`,
        `/v1/orgs/${org.id}/conversations-issues?cluster=%00`,
        `/v1/orgs/${org.id}/conversations-issues?conversation=%00`,
        `/v1/orgs/${org.id}/members?search=%00`,
        `/v1/orgs/${org.id}/teams?title=%00`,
        `/v1/orgs/${org.id}/sites?space=%00`,
        `/v1/spaces/${space}/comments?targetPage=%00`,
        `/v1/spaces/${space}/comments?authors=%00`,
      ];
      for (const path of filters) {
        const res = await org.owner.client.get(path);
        expectError(res, 400);
        const name = new URL(path, 'http://x').searchParams.keys().next().value;
        expect(res.body.error.message).toBe(
          `The query parameter "${name}" must not contain the character U+0000 (%00).`,
        );
      }
      await org.owner.client.get(`/v1/spaces/${space}/change-requests`).expect(200);
    });

    it('refuses bodies nested too deep and lists too long with 400, before any work', async () => {
      const deep = `{"title":"Docs","x":${'['.repeat(300)}${']'.repeat(300)}}`;
      const nested = await org.owner.client
        .post('/v1/orgs')
        .set('Content-Type', 'application/json')
        .send(deep);
      expectError(nested, 400);
      expect(nested.body.error.message).toMatch(/nested deeper than 256 levels/);

      const path = `/v1/spaces/${space}/change-requests/1/content`;
      const wide = await org.owner.client.post(path, { changes: new Array(10_001).fill(0) });
      expectError(wide, 400);
      expect(wide.body.error.message).toBe('changes has more than 10000 items.');
    });
  });
});

describe('slow clients', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' });
    await listening(t);
    token = (await t.factories.user()).token;
  });
  afterAll(async () => {
    t.server.close();
    await t.close();
  });

  /** Sends `first`, then `drip` every 200 ms until the server closes the connection. */
  async function drip(first: string, more: string): Promise<{ answer: string; ms: number }> {
    const started = Date.now();
    const { socket, answer } = await rawConnection(t.server);
    socket.write(first);
    const timer = setInterval(() => socket.write(more), 200);
    const received = await Promise.race([
      answer,
      new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 10_000)),
    ]);
    clearInterval(timer);
    socket.destroy();
    return { answer: received, ms: Date.now() - started };
  }

  it('cuts off a client that sends its headers too slowly (slowloris) with 408', async () => {
    const { answer, ms } = await drip(
      'GET /health HTTP/1.1\r\nHost: bindery.test\r\n',
      'X-A: b\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(4000);
  });

  it('cuts off a client that sends its body too slowly with 408', async () => {
    const { answer, ms } = await drip(
      'POST /v1/orgs HTTP/1.1\r\nHost: bindery.test\r\nContent-Type: application/json\r\n' +
        `Authorization: Bearer ${token}\r\nContent-Length: 1000\r\n\r\n`,
      ' ',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(5000);
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundHttp } from '../../platform/outbound-http';
import type { Change } from './dto/update-change-request-content.dto';
import { FileSources } from './file-sources';

describe('FileSources', () => {
  let server: http.Server;
  let origin: string;
  const requests: string[] = [];
  const clients: OutboundHttp[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      requests.push(request.url!);
      if (request.url === '/a.txt') {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('hello');
      } else if (request.url === '/raw') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end('raw');
      } else {
        response.writeHead(500);
        response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.onModuleDestroy()));
    await new Promise((resolve) => server.close(resolve));
  });

  function client(allowPrivate: boolean): OutboundHttp {
    const made = new OutboundHttp({ timeoutMs: 5000, maxBytes: 10 * 1024 * 1024, allowPrivate });
    clients.push(made);
    return made;
  }

  const files = (...list: object[]) =>
    [
      { operation: 'delete_page', page: 'p' },
      { operation: 'insert_files', files: list },
    ] as Change[];

  it('decodes base64 and fetches URLs, with the served content type unless one is given', async () => {
    const sources = await FileSources.read(
      files(
        {
          name: 'a.bin',
          contentType: 'application/x-a',
          base64: Buffer.from('abc').toString('base64'),
        },
        { name: 'a.txt', url: `${origin}/a.txt` },
        { name: 'b.txt', url: `${origin}/a.txt`, contentType: 'text/markdown' },
        { name: 'raw', url: `${origin}/raw` },
      ),
      client(true),
    );
    expect(sources.get(1, 0)).toEqual({
      name: 'a.bin',
      contentType: 'application/x-a',
      data: Buffer.from('abc'),
    });
    expect(sources.get(1, 1)).toEqual({
      name: 'a.txt',
      contentType: 'text/plain',
      data: Buffer.from('hello'),
    });
    expect(sources.get(1, 2).contentType).toBe('text/markdown');
    // application/octet-stream says nothing: the bytes and the name decide later.
    expect(sources.get(1, 3)).toEqual({ name: 'raw', data: Buffer.from('raw') });
  });

  it('refuses private addresses unless configuration allows them', async () => {
    requests.length = 0;
    await expect(
      FileSources.read(files({ name: 'a.txt', url: `${origin}/a.txt` }), client(false)),
    ).rejects.toThrow(
      expect.objectContaining({
        kind: 'bad_request',
        message: expect.stringMatching(
          /^Change 1 \(insert_files\): files\.0: url could not be fetched: Refusing to connect to 127\.0\.0\.1/,
        ),
      }),
    );
    expect(requests).toEqual([]);
  });

  it.each([
    [
      'base64 without contentType',
      { name: 'a', base64: 'AAAA' },
      'files.0: contentType is required with base64',
    ],
    [
      'invalid base64',
      { name: 'a', contentType: 'a/b', base64: 'not base64!' },
      'files.0: base64 is not valid base64',
    ],
    [
      'base64 too long',
      { name: 'a', contentType: 'a/b', base64: 'A'.repeat(1_400_000) },
      'files.0: the file is larger than 1048576 bytes (1 MB)',
    ],
    [
      '1 MB + 1 byte',
      { name: 'a', contentType: 'a/b', base64: Buffer.alloc(1024 * 1024 + 1).toString('base64') },
      'larger than 1048576 bytes',
    ],
    ['neither url nor base64', { name: 'a' }, 'files.0: give exactly one of url and base64'],
    [
      'both url and base64',
      { name: 'a', url: 'https://example.com/a', base64: 'AAAA' },
      'files.0: give exactly one of url and base64',
    ],
  ])('refuses %s before fetching anything', async (_case, file, message) => {
    requests.length = 0;
    await expect(
      FileSources.read(files({ name: 'ok', url: `${origin}/a.txt` }, file), client(true)),
    ).rejects.toThrow(message.replace('files.0', 'files.1'));
    expect(requests).toEqual([]);
  });

  it('names the earliest failing file when fetches fail', async () => {
    await expect(
      FileSources.read(
        files({ name: 'a', url: `${origin}/a.txt` }, { name: 'b', url: `${origin}/fail` }),
        client(true),
      ),
    ).rejects.toThrow('Change 1 (insert_files): files.1: url answered HTTP 500');
  });
});

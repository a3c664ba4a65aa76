import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A Git smart-HTTP server on 127.0.0.1 for tests: git's own `git http-backend` CGI behind a
 * small Node bridge, serving bare repositories of a temporary folder (pushes allowed), and
 * optionally requiring HTTP Basic credentials. Needs the git command line.
 */

const HTTP_BACKEND_CANDIDATES = [
  '/usr/lib/git-core/git-http-backend',
  '/usr/libexec/git-core/git-http-backend',
];

/** The git-http-backend program, or undefined when git is not installed. */
export function gitHttpBackend(): string | undefined {
  const version = spawnSync('git', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) return undefined;
  const execPath = spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).stdout?.trim();
  const candidates = execPath
    ? [join(execPath, 'git-http-backend'), ...HTTP_BACKEND_CANDIDATES]
    : HTTP_BACKEND_CANDIDATES;
  return candidates.find((candidate) => existsSync(candidate));
}

export interface GitServer {
  origin: string;
  root: string;
  /** Paths of the requests served, with their Authorization header when any. */
  requests: { method: string; url: string; authorization?: string }[];
  /** Creates the bare repository `<name>.git`; returns its clone URL. */
  createRepository(name: string): string;
  /** Runs git in the bare repository `<name>.git`; returns its output. */
  git(name: string, ...args: string[]): string;
  /** Commits `files` (path → text or bytes) as the content of `ref` (a new commit) in `<name>.git`. */
  pushFiles(
    name: string,
    ref: string,
    files: Record<string, string | Buffer>,
    message?: string,
  ): string;
  /**
   * Commits on top of `ref` of `<name>.git` the files given (path → text or bytes; null
   * deletes it; a `{from}` moves the file at `from` there, as `git mv`), and pushes; returns
   * the new commit.
   */
  editFiles(
    name: string,
    ref: string,
    files: Record<string, string | Buffer | null | { from: string }>,
    message?: string,
  ): string;
  close(): Promise<void>;
}

export async function startGitServer(
  options: { credentials?: { username: string; password: string } } = {},
): Promise<GitServer> {
  const backend = gitHttpBackend();
  if (!backend) throw new Error('git http-backend is not available');
  const root = mkdtempSync(join(tmpdir(), 'bindery-git-server-'));
  const requests: GitServer['requests'] = [];
  const expected = options.credentials
    ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString('base64')}`
    : undefined;

  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      authorization: req.headers.authorization,
    });
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      res.end('Authentication required');
      return;
    }
    const cgi = spawn(backend, [], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding']
          ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] }
          : {}),
        ...(req.headers['git-protocol']
          ? { GIT_PROTOCOL: String(req.headers['git-protocol']) }
          : {}),
        REMOTE_USER: 'tester',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(cgi.stdin);
    cgi.stderr.on('data', () => undefined);
    // The CGI's headers, then its body streamed as it comes (packs may be large).
    let head = Buffer.alloc(0);
    let started = false;
    const start = () => {
      started = true;
      let split = head.indexOf('\r\n\r\n');
      let separator = 4;
      if (split < 0) {
        split = head.indexOf('\n\n');
        separator = 2;
      }
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, split).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(split + separator));
    };
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        if (!res.write(chunk)) {
          cgi.stdout.pause();
          res.once('drain', () => cgi.stdout.resume());
        }
        return;
      }
      head = Buffer.concat([head, chunk]);
      if (head.includes('\r\n\r\n') || head.includes('\n\n')) start();
    });
    cgi.on('close', () => {
      if (!started) {
        res.writeHead(200);
        res.write(head);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const bare = (name: string) => join(root, `${name}.git`);
  const run = (cwd: string, args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Tester',
        GIT_AUTHOR_EMAIL: 'tester@example.com',
        GIT_COMMITTER_NAME: 'Tester',
        GIT_COMMITTER_EMAIL: 'tester@example.com',
      },
    });

  return {
    origin,
    root,
    requests,
    createRepository(name) {
      run(root, ['init', '--quiet', '--bare', '--initial-branch=main', bare(name)]);
      run(bare(name), ['config', 'http.receivepack', 'true']);
      return `${origin}/${name}.git`;
    },
    git(name, ...args) {
      return run(bare(name), args);
    },
    editFiles(name, ref, files, message = 'Edit') {
      const work = mkdtempSync(join(tmpdir(), 'bindery-git-work-'));
      try {
        const branch = ref.replace(/^refs\/heads\//, '');
        run(work, ['clone', '--quiet', '--branch', branch, bare(name), '.']);
        for (const [path, content] of Object.entries(files)) {
          if (content === null) {
            run(work, ['rm', '--quiet', path]);
          } else if (typeof content === 'object' && !Buffer.isBuffer(content)) {
            mkdirSync(dirname(join(work, path)), { recursive: true });
            run(work, ['mv', content.from, path]);
          } else {
            mkdirSync(dirname(join(work, path)), { recursive: true });
            writeFileSync(join(work, path), content);
          }
        }
        run(work, ['add', '--all']);
        run(work, ['commit', '--quiet', '-m', message]);
        run(work, ['push', '--quiet', 'origin', `HEAD:${ref}`]);
        return run(work, ['rev-parse', 'HEAD']).trim();
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    pushFiles(name, ref, files, message = 'Hand-made content') {
      const work = mkdtempSync(join(tmpdir(), 'bindery-git-work-'));
      try {
        run(work, ['init', '--quiet', '--initial-branch=work']);
        for (const [path, content] of Object.entries(files)) {
          mkdirSync(dirname(join(work, path)), { recursive: true });
          writeFileSync(join(work, path), content);
        }
        run(work, ['add', '--all']);
        run(work, ['commit', '--quiet', '-m', message]);
        run(work, ['push', '--quiet', '--force', bare(name), `HEAD:${ref}`]);
        return run(work, ['rev-parse', 'HEAD']).trim();
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(root, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

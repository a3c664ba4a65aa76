'use strict';
/**
 * A Git smart-HTTP server on 127.0.0.1 for the Git benchmark (git.js): git's own
 * `git http-backend` CGI behind a small Node bridge, serving the bare repositories of a
 * temporary folder, pushes allowed. The same bridge as the tests' test/helpers/git-server.ts,
 * in plain JS, counting the bytes it receives and sends. Needs the git command line.
 */
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { URL } = require('node:url');

const HTTP_BACKEND_CANDIDATES = [
  '/usr/lib/git-core/git-http-backend',
  '/usr/libexec/git-core/git-http-backend',
];

/** Commits by the bench are authored by this identity, whatever the user's git config says. */
const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

/** The git-http-backend program, or undefined when git is not installed. */
function gitHttpBackend() {
  const version = spawnSync('git', ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) return undefined;
  const execPath = spawnSync('git', ['--exec-path'], { encoding: 'utf8' }).stdout?.trim();
  const candidates = execPath
    ? [path.join(execPath, 'git-http-backend'), ...HTTP_BACKEND_CANDIDATES]
    : HTTP_BACKEND_CANDIDATES;
  return candidates.find((candidate) => fs.existsSync(candidate));
}

/** Runs git in `cwd` with the bench's identity; answers its output. */
function git(cwd, ...args) {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...GIT_IDENTITY },
  });
}

/**
 * Starts the server. Answers `origin`, `root`, `stats` (requests, bytes received and sent
 * since the last `resetStats()`), `createRepository(name)` (a bare `<name>.git` accepting
 * pushes; answers its URL), `bare(name)` (its folder), `git(name, ...args)` (git in it) and
 * `close()`.
 */
async function startGitServer() {
  const backend = gitHttpBackend();
  if (!backend) {
    throw new Error('The Git benchmark needs the git command line with git http-backend.');
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bindery-bench-git-'));
  const stats = { requests: 0, bytesIn: 0, bytesOut: 0 };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    stats.requests++;
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
        REMOTE_USER: 'bench',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.on('data', (chunk) => (stats.bytesIn += chunk.length));
    req.pipe(cgi.stdin);
    cgi.stdin.on('error', () => undefined); // the CGI may exit before reading everything
    const chunks = [];
    cgi.stdout.on('data', (chunk) => chunks.push(chunk));
    cgi.stderr.on('data', () => undefined);
    cgi.on('close', () => {
      const output = Buffer.concat(chunks);
      const crlf = output.indexOf('\r\n\r\n');
      const headerEnd = crlf >= 0 ? crlf : output.indexOf('\n\n');
      const separator = crlf >= 0 ? 4 : 2;
      const head = output.subarray(0, Math.max(headerEnd, 0)).toString('latin1');
      let status = 200;
      const headers = {};
      for (const line of head.split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      const body = headerEnd >= 0 ? output.subarray(headerEnd + separator) : output;
      stats.bytesOut += body.length;
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const bare = (name) => path.join(root, `${name}.git`);

  return {
    origin,
    root,
    stats,
    resetStats() {
      Object.assign(stats, { requests: 0, bytesIn: 0, bytesOut: 0 });
    },
    createRepository(name) {
      git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare(name));
      git(bare(name), 'config', 'http.receivepack', 'true');
      return `${origin}/${name}.git`;
    },
    bare,
    git: (name, ...args) => git(bare(name), ...args),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          fs.rmSync(root, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

module.exports = { GIT_IDENTITY, git, gitHttpBackend, startGitServer };

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, type BinderyProcess, freePort, spawnBindery } from '../helpers/processes';

/** Nest's per-module and per-route narration, logged at debug. */
const NEST_START_CONTEXTS = [
  'NestFactory',
  'NestApplication',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
];

const linesOf = (output: string) => output.replace(/\n$/, '').split('\n');

/**
 * Node's own process warnings on stderr (pg's deprecation of queued queries, which the content
 * engine's tree diff triggers while the demo seed commits its pages): not log lines.
 */
const isNodeWarning = (line: string) =>
  /^\(node:\d+\) \w*Warning: |^\(Use `node --trace-/.test(line);

function isJson(line: string): boolean {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
}

/** Runs `node dist/src/main.js` on `dataDir` until ready, then stops it (SIGTERM). */
async function startAndStop(name: string, dataDir: string): Promise<string> {
  const server: BinderyProcess = spawnBindery(
    'api',
    name,
    // LOG_LEVEL and LOG_FORMAT unset: info, and JSON since stdout is a pipe.
    { DATA_DIR: dataDir, SEED_DEMO: 'true' },
    { port: await freePort() },
  );
  try {
    await server.ready;
    // The banner is written at once; give the pipe a moment to deliver all of it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const output = server.output();
    expect(await server.stop()).toBe(0);
    return output;
  } finally {
    server.kill();
  }
}

/**
 * What `npm start` shows (issue "The first hour"): a few log lines, then the banner last, the
 * generated administrator token in a frame on a first start, and on a later start a short
 * output that says how to get administrator access.
 */
describe('start-up output of the server process', () => {
  let dataDir: string;
  let first: string;

  beforeAll(async () => {
    assertBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'bindery-start-'));
    first = await startAndStop('first start', dataDir);
  }, 120_000);

  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends a first start with the banner, after every log line', () => {
    const lines = linesOf(first);
    const ready = lines.findIndex((line) => line.startsWith('Bindery is ready on'));
    expect(ready).toBeGreaterThan(0);
    const logs = lines.slice(0, ready).filter((line) => line !== '' && !isNodeWarning(line));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter((line) => !isJson(line))).toEqual([]);
    expect(lines.slice(ready).filter(isJson)).toEqual([]);
    expect(lines[lines.length - 1]).toMatch(/^\s+└─+┘$/);
    expect(logs.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContainEqual(
      expect.stringMatching(/^database schema up to date \(\d+ migrations\)$/),
    );
  });

  it('shows the generated admin token in a frame that says it is shown once', () => {
    const lines = linesOf(first);
    const top = lines.findIndex((line) => /^\s+┌─+┐$/.test(line));
    expect(top).toBeGreaterThan(0);
    const frame = lines.slice(top, top + 5);
    expect(frame[1]).toMatch(/^\s+│ Admin token: bnd_admin_[A-Za-z0-9_-]{43}\s+│$/);
    expect(frame.slice(2, 4).join(' ')).toMatch(/shown once/i);
    expect(frame.slice(2, 4).join(' ')).toContain('ADMIN_TOKEN');
    expect(frame[4]).toMatch(/^\s+└─+┘$/);
    expect(new Set(frame.map((line) => line.length)).size).toBe(1);
    expect(first).toMatch(/Demo API token: {4}bnd_[A-Za-z0-9_-]{43}\n/);
  });

  it('logs no line per module or route at info, and no duplicate DTO warning', () => {
    expect(first).not.toContain('Duplicate DTO');
    const contexts = linesOf(first)
      .filter(isJson)
      .map((line) => (JSON.parse(line) as { context?: string }).context);
    for (const context of NEST_START_CONTEXTS) expect(contexts).not.toContain(context);
    expect(first).not.toMatch(/Mapped \{|dependencies initialized/);
  });

  it('prints under 15 lines on a later start, with how to get admin access', async () => {
    const later = await startAndStop('later start', dataDir);
    const lines = linesOf(later);
    expect(lines.length).toBeLessThan(15);
    expect(lines.filter((line) => line.startsWith('Bindery is ready on'))).toHaveLength(1);
    expect(later).toMatch(/Admin token: .*ADMIN_TOKEN/);
    // Neither the admin token nor the demo data again: they exist already.
    expect(later).not.toMatch(/bnd_admin_|Demo API token/);
    expect(lines[lines.length - 1]).toMatch(/Admin token: .*ADMIN_TOKEN/);
  }, 120_000);
});

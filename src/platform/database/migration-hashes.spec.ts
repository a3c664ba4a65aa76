import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  HASH_LIST,
  MIGRATIONS_DIR,
  readHashList,
  recordMigrationHashes,
  sha256,
  verifyMigrationHashes,
} from './migration-hashes';

describe('migration hashes', () => {
  let dir: string;
  const write = (file: string, text: string) => writeFileSync(join(dir, file), text);
  const list = () => readFileSync(join(dir, HASH_LIST), 'utf8');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bindery-migration-hashes-'));
    write('1000-create-a.ts', 'export class CreateA1000 {}\n');
    write('2000-create-b.ts', 'export class CreateB2000 {}\n');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('records every migration in the format of sha256sum, and then passes', () => {
    expect(recordMigrationHashes(dir)).toEqual(['1000-create-a.ts', '2000-create-b.ts']);
    expect(list()).toBe(
      `${sha256(join(dir, '1000-create-a.ts'))}  1000-create-a.ts\n` +
        `${sha256(join(dir, '2000-create-b.ts'))}  2000-create-b.ts\n`,
    );
    expect(verifyMigrationHashes(dir)).toEqual([]);
    expect(recordMigrationHashes(dir)).toEqual([]);
  });

  it('fails when a listed migration was edited, naming it and saying what to do', () => {
    recordMigrationHashes(dir);
    appendFileSync(join(dir, '1000-create-a.ts'), '// edited\n');
    const problems = verifyMigrationHashes(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('migrations/1000-create-a.ts has changed since it landed');
    expect(problems[0]).toContain('new migration');
  });

  it('fails when a migration is not listed, with the command that records it', () => {
    recordMigrationHashes(dir);
    write('3000-create-c.ts', 'export class CreateC3000 {}\n');
    const problems = verifyMigrationHashes(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('migrations/3000-create-c.ts is not in migrations/SHA256SUMS');
    expect(problems[0]).toContain('npm run migration:hashes:record');
  });

  it('fails when there is no list at all', () => {
    expect(verifyMigrationHashes(dir)).toHaveLength(2);
  });

  it('fails when a listed migration is gone', () => {
    recordMigrationHashes(dir);
    rmSync(join(dir, '2000-create-b.ts'));
    expect(verifyMigrationHashes(dir)).toEqual([
      expect.stringContaining('migrations/2000-create-b.ts is listed in migrations/SHA256SUMS'),
    ]);
  });

  it('records a new migration without touching the listed ones', () => {
    recordMigrationHashes(dir);
    const before = list();
    write('3000-create-c.ts', 'export class CreateC3000 {}\n');
    expect(recordMigrationHashes(dir)).toEqual(['3000-create-c.ts']);
    expect(list().startsWith(before)).toBe(true);
    expect(verifyMigrationHashes(dir)).toEqual([]);
  });

  it('refuses to record over the hash of an edited migration, and writes nothing', () => {
    recordMigrationHashes(dir);
    const before = list();
    appendFileSync(join(dir, '1000-create-a.ts'), '// edited\n');
    write('3000-create-c.ts', 'export class CreateC3000 {}\n');
    expect(() => recordMigrationHashes(dir)).toThrow(/Not recording: a listed hash never changes/);
    expect(list()).toBe(before);
  });

  it('refuses to record when a listed migration is gone', () => {
    recordMigrationHashes(dir);
    const before = list();
    rmSync(join(dir, '1000-create-a.ts'));
    expect(() => recordMigrationHashes(dir)).toThrow(/is listed in migrations\/SHA256SUMS/);
    expect(list()).toBe(before);
  });

  it('rejects a malformed or duplicated line', () => {
    write(HASH_LIST, 'not a hash line\n');
    expect(() => verifyMigrationHashes(dir)).toThrow(/line 1 is not/);
    const line = `${sha256(join(dir, '1000-create-a.ts'))}  1000-create-a.ts\n`;
    write(HASH_LIST, line + line);
    expect(() => readHashList(dir)).toThrow(/lists 1000-create-a.ts twice/);
  });

  it('the committed list matches the repository migrations', () => {
    expect(verifyMigrationHashes(MIGRATIONS_DIR)).toEqual([]);
  });
});

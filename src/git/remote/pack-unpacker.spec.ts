import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IN_MEMORY_BYTES, openObject, readObject } from './loose-objects';
import { applyDelta, CorruptPackError, unpackObjects } from './pack-unpacker';
import { writePackFile } from './pack-writer';

/*
 * Packs made by Git itself (with deltas of every kind: by offset and by name, small and
 * larger than IN_MEMORY_BYTES, against bases of both sizes) unpacked into loose objects, and
 * packs written from them read back by Git. Needs the git command line.
 */

const hasGit = spawnSync('git', ['--version']).status === 0;

function git(cwd: string, ...args: string[]): Buffer {
  return execFileSync('git', args, {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Tester',
      GIT_AUTHOR_EMAIL: 'tester@example.com',
      GIT_COMMITTER_NAME: 'Tester',
      GIT_COMMITTER_EMAIL: 'tester@example.com',
    },
  });
}

(hasGit ? describe : describe.skip)('unpackObjects and writePackFile', () => {
  let root: string;
  let repo: string;
  let objects: { oid: string; type: string }[];

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'bindery-pack-spec-'));
    repo = join(root, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '--quiet', '--initial-branch=main');
    // Large files and their edits: a delta with a large base and target, and one that inserts
    // more than IN_MEMORY_BYTES (a large delta).
    const large = randomBytes(3 * 1024 * 1024);
    const common = randomBytes(2560 * 1024);
    const text = Array.from({ length: 400 }, (_, i) => `Line ${i} of the guide.`).join('\n');
    writeFileSync(join(repo, 'large.bin'), large);
    // Two files alike but for 1.2 MiB each: either is a delta of the other inserting as much.
    writeFileSync(join(repo, 'grown.bin'), Buffer.concat([common, randomBytes(1228 * 1024)]));
    writeFileSync(join(repo, 'guide.md'), `${text}\n`);
    git(repo, 'add', '--all');
    git(repo, 'commit', '--quiet', '-m', 'First');
    const edited = Buffer.from(large);
    edited.write('an edit', 1024 * 1024);
    writeFileSync(join(repo, 'large.bin'), edited);
    writeFileSync(join(repo, 'grown.bin'), Buffer.concat([common, randomBytes(1228 * 1024)]));
    writeFileSync(join(repo, 'guide.md'), `${text}\nOne more line.\n`);
    git(repo, 'add', '--all');
    git(repo, 'commit', '--quiet', '-m', 'Second');
    objects = git(
      repo,
      'cat-file',
      '--batch-all-objects',
      '--batch-check=%(objectname) %(objecttype)',
    )
      .toString()
      .trim()
      .split('\n')
      .map((line) => {
        const [oid, type] = line.split(' ');
        return { oid, type };
      });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A pack of every object of the repository, as Git writes it; its path. */
  function gitPack(name: string, ...options: string[]): string {
    const list = objects.map((object) => object.oid).join('\n');
    const base = join(root, name);
    const hash = execFileSync(
      'git',
      ['pack-objects', '--window=50', '--depth=10', ...options, base],
      { cwd: repo, input: list },
    )
      .toString()
      .trim();
    return `${base}-${hash}.pack`;
  }

  /** The delta entries of a pack, as `git verify-pack` lists them: size and size in the pack. */
  function deltas(pack: string): { size: number }[] {
    return git(repo, 'verify-pack', '-v', pack)
      .toString()
      .split('\n')
      .map((line) => line.split(/\s+/))
      .filter((fields) => fields.length >= 7 && /^[0-9a-f]{40}$/.test(fields[0]))
      .map((fields) => ({ size: Number(fields[2]) }));
  }

  async function expectUnpacked(pack: string): Promise<string> {
    const gitdir = join(root, `unpacked-${Math.random().toString(36).slice(2)}`);
    mkdirSync(join(gitdir, 'objects'), { recursive: true });
    expect(await unpackObjects(gitdir, pack)).toBe(objects.length);
    for (const { oid, type } of objects) {
      const expected = git(repo, 'cat-file', type, oid);
      if (expected.length <= IN_MEMORY_BYTES) {
        expect(await readObject(gitdir, oid)).toEqual({ type, data: expected });
      } else {
        const object = await openObject(gitdir, oid);
        const chunks: Buffer[] = [];
        for await (const chunk of object.content) chunks.push(chunk as Buffer);
        expect(object.type).toBe(type);
        expect(Buffer.compare(Buffer.concat(chunks), expected)).toBe(0);
      }
    }
    // Nothing temporary is left.
    expect(readdirSync(join(gitdir, 'objects')).filter((name) => name.startsWith('tmp'))).toEqual(
      [],
    );
    return gitdir;
  }

  it('unpacks offset deltas, large ones included', async () => {
    const pack = gitPack('ofs', '--delta-base-offset');
    const found = deltas(pack);
    expect(found.some((delta) => delta.size > IN_MEMORY_BYTES)).toBe(true);
    await expectUnpacked(pack);
  });

  it('unpacks deltas by name', async () => {
    const pack = gitPack('ref');
    expect(deltas(pack).length).toBeGreaterThan(0);
    await expectUnpacked(pack);
  });

  it('writes a pack of loose objects that Git reads back', async () => {
    const gitdir = await expectUnpacked(gitPack('source', '--delta-base-offset'));
    const written = join(root, 'written.pack');
    await writePackFile(
      gitdir,
      objects.map((object) => object.oid),
      written,
    );
    const target = join(root, 'target.git');
    git(root, 'init', '--quiet', '--bare', target);
    git(target, 'index-pack', '-o', join(root, 'written.idx'), written);
    const listed = git(target, 'verify-pack', '-v', join(root, 'written.idx'))
      .toString()
      .split('\n')
      .filter((line) => /^[0-9a-f]{40} /.test(line))
      .map((line) => line.split(/\s+/)[0])
      .sort();
    expect(listed).toEqual(objects.map((object) => object.oid).sort());
  });

  it('refuses a truncated pack', async () => {
    const pack = gitPack('whole', '--delta-base-offset');
    const cut = join(root, 'cut.pack');
    const bytes = execFileSync('head', ['-c', '4000', pack]);
    writeFileSync(cut, bytes);
    const gitdir = join(root, 'cut');
    mkdirSync(join(gitdir, 'objects'), { recursive: true });
    await expect(unpackObjects(gitdir, cut)).rejects.toBeInstanceOf(CorruptPackError);
  });
});

describe('applyDelta', () => {
  it('copies from the base and inserts new bytes', () => {
    const base = Buffer.from('Hello, world!');
    // Base of 13 bytes, target of 12: copy 7 bytes from offset 0, insert 5.
    const delta = Buffer.from([13, 12, 0x90, 7, 5, ...Buffer.from('there')]);
    expect(applyDelta(base, delta).toString()).toBe('Hello, there');
  });

  it('refuses a delta that copies past its base', () => {
    const delta = Buffer.from([3, 10, 0x90, 10]);
    expect(() => applyDelta(Buffer.from('abc'), delta)).toThrow(CorruptPackError);
  });
});

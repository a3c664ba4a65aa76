import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from './remove-tree';

describe('removeTree', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'bindery-remove-tree-'));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes a directory with nested directories and more files than it removes at once', async () => {
    const gitdir = join(root, 'repo.git');
    for (const fanout of ['00', 'ab', 'ff']) {
      mkdirSync(join(gitdir, 'objects', fanout), { recursive: true });
      for (let i = 0; i < 40; i++) writeFileSync(join(gitdir, 'objects', fanout, `${i}`), 'x');
    }
    mkdirSync(join(gitdir, 'refs', 'heads', 'empty'), { recursive: true });
    writeFileSync(join(gitdir, 'HEAD'), 'ref: refs/heads/main\n');

    await removeTree(gitdir);

    expect(existsSync(gitdir)).toBe(false);
    expect(existsSync(root)).toBe(true);
  });

  it('does nothing for a path that is gone, and removes a lone file', async () => {
    await expect(removeTree(join(root, 'missing'))).resolves.toBeUndefined();
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    await removeTree(file);
    expect(existsSync(file)).toBe(false);
  });
});

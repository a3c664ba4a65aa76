import type { PageTree } from '../../content-engine/reads/content-reader';
import { pagesToPrint } from './printed-pages';

const tree = (id: string, pages: PageTree[] = []): PageTree => ({
  node: { id, type: 'document', meta: { title: id }, document: null, pages: [] },
  path: id,
  pages,
});

describe('pagesToPrint', () => {
  const trees = [tree('a', [tree('a1', [tree('a1x')]), tree('a2')]), tree('b')];

  it('lists pages depth first, each before its subpages, with their depth', () => {
    expect(pagesToPrint(trees).map(({ node, depth }) => `${node.id}:${depth}`)).toEqual([
      'a:0',
      'a1:1',
      'a1x:2',
      'a2:1',
      'b:0',
    ]);
  });

  it('with only, leaves the subpages out', () => {
    expect(pagesToPrint([trees[0]], true).map(({ node }) => node.id)).toEqual(['a']);
  });
});

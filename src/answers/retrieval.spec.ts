import type { ScoredSearchSpaceResultResponse } from '../spaces/search/dto/search-content.dto';
import type { SearchRun } from '../spaces/search/search.service';
import { fusePages, searchesFor } from './retrieval';

/** A search's results: one space holding `pageIds`, best first. */
function run(query: string, pageIds: string[], matches?: number, byMeaning = false): SearchRun {
  const items: ScoredSearchSpaceResultResponse[] = [
    {
      type: 'space',
      id: 'space',
      title: 'Docs',
      score: 1,
      pages: pageIds.map((id, index) => ({
        id,
        title: id,
        path: id,
        description: '',
        score: pageIds.length - index,
        rank: index + 1,
        ancestors: [],
        urls: { app: '' },
        sections: [],
      })),
    },
  ];
  return { query, items, matches, ...(byMeaning ? { byMeaning } : {}) };
}

describe('searchesFor', () => {
  it('searches the question, then its telling words alone, longest first', () => {
    expect(searchesFor('How do I rotate the log files?')).toEqual([
      'How do I rotate the log files?',
      'rotate',
      'files',
      'log',
    ]);
  });

  it('leaves out the question words of French, German and Spanish too', () => {
    expect(searchesFor('Comment configurer le tampon ?').slice(1)).toEqual([
      'configurer',
      'tampon',
    ]);
    expect(searchesFor('Wie kann ich den Puffer leeren?').slice(1)).toEqual(['puffer', 'leeren']);
    expect(searchesFor('¿Cómo se instala en Docker?').slice(1)).toEqual(['instala', 'docker']);
  });

  it('searches a one-word question once', () => {
    expect(searchesFor('webhooks')).toEqual(['webhooks']);
  });
});

describe('fusePages', () => {
  it('ranks the page a rare word finds first above pages common words find', () => {
    const pages = fusePages(
      {
        pages: 200,
        runs: [
          run('buffer flush interval for output', []),
          run('output', ['a', 'b', 'c', 'd', 'flush'], 150),
          run('buffer', ['b', 'c', 'a', 'd', 'flush'], 120),
          run('interval', ['flush', 'x'], 4),
        ],
      },
      5,
    );
    expect(pages[0].pageId).toBe('flush');
  });

  it("weighs the whole question's results and the search by meaning", () => {
    const fused = (meaning: string[]) =>
      fusePages(
        {
          pages: 100,
          runs: [
            run('q', ['whole']),
            run('word', ['other'], 100),
            run('q', meaning, undefined, true),
          ],
        },
        3,
      ).map((page) => page.pageId);
    expect(fused([])).toEqual(['whole', 'other']);
    expect(fused(['near'])[0]).toBe('near');
  });

  it('fuses only the eight words that match the fewest pages', () => {
    const words = Array.from({ length: 10 }, (_, i) => run(`w${i}`, [`p${i}`], 10 + i));
    const pages = fusePages({ pages: 100, runs: [run('q', []), ...words] }, 20);
    expect(pages.map((page) => page.pageId).sort()).toEqual(
      ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'].sort(),
    );
  });
});

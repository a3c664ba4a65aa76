import type { ScoredSearchSpaceResultResponse } from '../spaces/search/dto/search-content.dto';
import type { SearchRun } from '../spaces/search/search.service';
import { fusePages, tellingWords } from './retrieval';

/** A search's results: one space holding `pageIds`, best first. */
function run(query: string, pageIds: string[], byMeaning = false): SearchRun {
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
  return { query, items, ...(byMeaning ? { byMeaning } : {}) };
}

describe('tellingWords', () => {
  it('keeps the words that say what a question is about, once, in its order', () => {
    expect(tellingWords('How do I rotate the log files? Rotate them daily')).toEqual([
      'rotate',
      'log',
      'files',
      'daily',
    ]);
  });

  it('leaves out the question words of French, German and Spanish too', () => {
    expect(tellingWords('Comment configurer le tampon ?')).toEqual(['configurer', 'tampon']);
    expect(tellingWords('Wie kann ich den Puffer leeren?')).toEqual(['puffer', 'leeren']);
    expect(tellingWords('¿Cómo se instala en Docker?')).toEqual(['instala', 'docker']);
  });

  it('splits words at hyphens and keeps twelve at most', () => {
    expect(tellingWords('td-agent')).toEqual(['td', 'agent']);
    expect(tellingWords(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '))).toHaveLength(12);
  });
});

describe('fusePages', () => {
  it('keeps the order of the search by words, one entry per page', () => {
    const pages = fusePages({ runs: [run('q', ['a', 'b', 'c'])] }, 2);
    expect(pages.map((page) => page.pageId)).toEqual(['a', 'b']);
  });

  it('weighs the search by meaning less than the search by words', () => {
    const fused = (meaning: string[]) =>
      fusePages({ runs: [run('q', ['words', 'both']), run('q', meaning, true)] }, 3).map(
        (page) => page.pageId,
      );
    expect(fused([])).toEqual(['words', 'both']);
    // Found by both: above a page only the words found first.
    expect(fused(['both'])[0]).toBe('both');
    // Found by meaning alone, first: below the words' first.
    expect(fused(['near'])).toEqual(['words', 'both', 'near']);
  });
});

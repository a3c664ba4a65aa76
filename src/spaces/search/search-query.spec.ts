import { searchTerms } from '../../content-engine/search/search-terms';
import { searchQuery } from './search-query';

describe('searchQuery', () => {
  const english = { config: 'english', terms: searchTerms('webhok', 'en'), languages: ['en'] };

  it('holds one language’s query in q without reading the space’s language', () => {
    const q = searchQuery([english]);
    expect(q.perLanguage).toBe(false);
    expect(q.own).toBe('q.query0');
    expect(q.ownExact).toBe('q.exact0');
    expect(q.columns).toContain(`to_tsquery('english'::regconfig, :sq_words0)`);
    expect(q.params).toMatchObject({ sq_prefixes0: "'webhok':*", sq_prefix_words0: "'webhok'" });
    expect(q.corrected).toBe(false);
  });

  it('adds corrections to the query, not to the exact one', () => {
    const q = searchQuery([english], new Map([['webhok', ['webhook']]]));
    expect(q.corrected).toBe(true);
    expect(q.params).toMatchObject({
      sq_prefixes0: "('webhok':* | 'webhook')",
      sq_exact_prefixes0: "'webhok':*",
    });
  });

  it('holds each page to its space’s language when the languages differ', () => {
    const german = {
      config: 'german',
      terms: searchTerms('Groessenaenderung', 'de'),
      languages: ['de'],
    };
    const q = searchQuery([{ ...english, languages: [null, 'en'] }, german]);
    expect(q.perLanguage).toBe(true);
    expect(q.own).toBe(
      '(CASE WHEN s.language IS NULL OR s.language = ANY(:sq_languages0::varchar[]) THEN q.query0 ' +
        'WHEN s.language = ANY(:sq_languages1::varchar[]) THEN q.query1 END)',
    );
    expect(q.params).toMatchObject({ sq_languages0: ['en'], sq_languages1: ['de'] });
    expect(q.params.sq_prefixes1).toBe("'grossenanderung':*");
  });

  it('refuses a configuration it does not know, which would be written into SQL', () => {
    expect(() => searchQuery([{ ...english, config: "english'; DROP" }])).toThrow(
      'Unknown search config',
    );
  });
});

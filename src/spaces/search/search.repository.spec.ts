import { searchTerms } from '../../content-engine/search/search-terms';
import { searchQuery } from './search-query';
import { rankedPagesCtes } from './search.repository';

describe('rankedPagesCtes', () => {
  const english = { config: 'english', terms: searchTerms('webhook', 'en'), languages: ['en'] };
  const sql = rankedPagesCtes(
    { sql: 'SELECT :scopeSpaceId::varchar', params: {} },
    searchQuery([english]),
  );
  const titled = sql.slice(sql.indexOf('titled AS'), sql.indexOf('first AS'));

  it('asks the page-title index for one more than the limit', () => {
    expect(titled).toContain(`ts_filter(pg.tsv, '{a}'::"char"[]) @@ q.query`);
    expect(titled).toContain('LIMIT :rankLimit::int + 1');
  });

  it('reads other matches only when the titles hold no more than the limit', () => {
    expect(sql).toMatch(/first AS MATERIALIZED \(\s*SELECT \* FROM \(/);
    expect(sql).toContain('WHERE (SELECT count(*) FROM titled) <= :rankLimit::int');
  });

  it('ranks every match when few match, else the title matches first, by id, up to the limit', () => {
    expect(sql).toContain('SELECT space_id, page_id FROM first WHERE NOT (SELECT yes FROM large)');
    expect(sql).toMatch(/ORDER BY tier, page_id\s+LIMIT :rankLimit::int/);
    expect(sql).toContain('ts_rank(pg.tsv, q.exact0)');
  });

  it('holds each page to its space’s language when the languages differ', () => {
    const german = { config: 'german', terms: searchTerms('Webhook', 'de'), languages: ['de'] };
    const mixed = rankedPagesCtes({ sql: 'SELECT 1', params: {} }, searchQuery([english, german]));
    expect(mixed.match(/JOIN spaces s ON s.id = pg.space_id/g)).toHaveLength(3);
  });

  it('leaves out the pages a scope hides, in every match it reads', () => {
    const hiding = rankedPagesCtes(
      { sql: 'SELECT 1', params: {}, hidesPages: true },
      searchQuery([english]),
    );
    expect(hiding.match(/:hiddenPageIds/g)).toHaveLength(2);
    expect(sql).not.toContain(':hiddenPageIds');
  });
});

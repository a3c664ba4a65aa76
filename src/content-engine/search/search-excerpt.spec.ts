import { excerpt, type ExcerptOptions } from './search-excerpt';
import { searchTerms } from './search-terms';

const options = (overrides: Partial<ExcerptOptions> = {}): ExcerptOptions => ({
  maxLength: 80,
  before: 20,
  marking: 'markdown',
  language: null,
  ...overrides,
});

describe('excerpt', () => {
  const filler = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';

  it('shows a short body whole, its hits marked', () => {
    expect(
      excerpt('Rotate your tokens often.', searchTerms('token', 'en'), new Map(), options()),
    ).toBe('Rotate your **tokens** often.');
  });

  it('cuts a long body around its best hit, at word boundaries, with ellipses', () => {
    const body = `${filler.repeat(3)}Set the webhook secret here. ${filler.repeat(3)}`;
    const text = excerpt(body, searchTerms('webhook secret', 'en'), new Map(), options());
    expect(text).toMatch(/^…[A-Za-z]/);
    expect(text).toContain('Set the **webhook** **secret** here.');
    expect(text.endsWith('…')).toBe(true);
    expect(text.replace(/\*\*|…/g, '').length).toBeLessThanOrEqual(80);
  });

  it('prefers the window with the most distinct terms', () => {
    const body = `webhook ${filler.repeat(2)}webhook secret ${filler}`;
    const text = excerpt(body, searchTerms('webhook secret', 'en'), new Map(), options());
    expect(text).toContain('**webhook** **secret**');
  });

  it('marks accented, inflected, corrected and CJK hits on the original text', () => {
    expect(
      excerpt('Les paramètres avancés.', searchTerms('parametre', 'fr'), new Map(), options()),
    ).toBe('Les **paramètres** avancés.');
    expect(
      excerpt('Configuration files.', searchTerms('configuring', 'en'), new Map(), options()),
    ).toBe('**Configuration** files.');
    expect(
      excerpt(
        'Receive a webhook.',
        searchTerms('webhok', 'en'),
        new Map([['webhok', ['webhook']]]),
        options(),
      ),
    ).toBe('Receive a **webhook**.');
    expect(
      excerpt('サイト内の全文検索を使う。', searchTerms('全文検索', 'ja'), new Map(), options()),
    ).toBe('サイト内の**全文検索**を使う。');
    expect(excerpt('Die Straße.', searchTerms('strasse', 'de'), new Map(), options())).toBe(
      'Die **Straße**.',
    );
  });

  it('leaves hits unmarked with marking none', () => {
    expect(
      excerpt(
        'Rotate tokens.',
        searchTerms('tokens', 'en'),
        new Map(),
        options({ marking: 'none' }),
      ),
    ).toBe('Rotate tokens.');
  });

  it('gives the opening of a body without hits, and nothing for an empty one', () => {
    const text = excerpt(filler.repeat(4), searchTerms('webhook', 'en'), new Map(), options());
    expect(text.startsWith('Lorem ipsum')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(excerpt('', searchTerms('webhook', 'en'), new Map(), options())).toBe('');
  });
});

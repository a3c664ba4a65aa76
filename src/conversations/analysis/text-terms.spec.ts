import { contentWords, stem, surfaceForms, termCounts } from './text-terms';

describe('text terms', () => {
  it('stems the forms of a word together', () => {
    const stems = (words: string[]) => new Set(words.map(stem));
    expect(stems(['log', 'logs', 'logging', 'logged']).size).toBe(1);
    expect(stems(['invoice', 'invoices']).size).toBe(1);
    expect(stems(['export', 'exports', 'exported', 'exporting']).size).toBe(1);
    expect(stems(['charge', 'charged', 'charges']).size).toBe(1);
    expect(stems(['password', 'passwords']).size).toBe(1);
    expect(stem('sso')).toBe('sso');
  });

  it('drops stop words, small talk, markup and links', () => {
    expect(
      contentWords(
        'Hi team, thanks! <b>Exporting</b> https://x.test/a fails for me, can you help?',
      ),
    ).toEqual(['exporting', 'fails']);
  });

  it('counts stems', () => {
    expect(termCounts('Invoice charged twice; the invoices are wrong')).toEqual({
      invoic: 2,
      charg: 1,
      twic: 1,
      wrong: 1,
    });
  });

  it('maps stems back to the most frequent word', () => {
    expect(surfaceForms(['invoices invoice invoices']).get(stem('invoice'))).toBe('invoices');
  });
});

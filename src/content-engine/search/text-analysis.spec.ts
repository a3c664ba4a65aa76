import { foldText, foldWithSources } from './text-folding';
import { bigrams, segmentForIndex } from './text-segmentation';
import { correctable, indexText, searchTerms, tsqueryText } from './search-terms';
import { textSearchConfig } from './search-languages';

describe('foldText', () => {
  it('folds case and Latin and Greek accents', () => {
    expect(foldText('Paramètres ÉTÉ Ångström Ελληνικά')).toBe('parametres ete angstrom ελληνικα');
  });

  it('spells ß, æ, œ, ø and ł out, and writes ё as е', () => {
    expect(foldText('Straße STRASSE Æther cœur Øre Łódź Ёлка')).toBe(
      'strasse strasse aether coeur ore lodz елка',
    );
  });

  it('keeps Cyrillic й, kana voicing and Hangul, and folds full-width forms', () => {
    expect(foldText('Настройка йога')).toBe('настройка йога');
    expect(foldText('データベース ガイド')).toBe('データベース ガイド');
    expect(foldText('검색을 ＡＰＩ')).toBe('검색을 api');
  });

  it('drops a decomposed accent with its letter', () => {
    expect(foldText('Param\u0065\u0300tres')).toBe('parametres');
  });

  it('reads ae, oe, ue as umlauts in German only', () => {
    expect(foldText('Größenänderung Groessenaenderung', 'de')).toBe(
      'grossenanderung grossenanderung',
    );
    expect(foldText('Groessenaenderung', 'en')).toBe('groessenaenderung');
  });

  it('maps each folded character back to its place in the original', () => {
    const folded = foldWithSources('Aß é', null);
    expect(folded.text).toBe('ass e');
    expect(folded.sources).toEqual([0, 1, 1, 2, 3]);
    const german = foldWithSources('Groesse', 'de');
    expect(german.text).toBe('grosse');
    expect(german.sources).toEqual([0, 1, 2, 4, 5, 6]);
  });
});

describe('segmentation', () => {
  it('cuts CJK runs into overlapping bigrams, a lone character kept whole', () => {
    expect(bigrams('全文検索')).toEqual(['全文', '文検', '検索']);
    expect(bigrams('字')).toEqual(['字']);
    expect(segmentForIndex('サイト内の全文検索 API 검색을')).toBe(
      ' サイ イト ト内 内の の全 全文 文検 検索  API  검색 색을 ',
    );
  });

  it('cuts Thai into dictionary words', () => {
    expect(segmentForIndex('การค้นหาข้อความ').trim().split(/\s+/)).toEqual(['การ', 'ค้นหา', 'ข้อความ']);
  });

  it('indexes folded, segmented text', () => {
    expect(indexText('Größe 検索', 'de')).toBe('grosse  検索 ');
  });
});

describe('searchTerms', () => {
  it('keeps words only, folded, the last one also as a prefix', () => {
    expect(searchTerms('  Install the  Conf', 'en')).toEqual([
      { text: 'install', prefix: false },
      { text: 'the', prefix: false },
      { text: 'conf', prefix: true },
    ]);
    expect(searchTerms('Café', 'fr')).toEqual([{ text: 'cafe', prefix: true }]);
    // One letter is no prefix worth matching.
    expect(searchTerms('x', 'en')).toEqual([{ text: 'x', prefix: false }]);
  });

  it('drops tsquery syntax so that input cannot change the query', () => {
    expect(searchTerms("a & !b | c:* <-> 'd'", 'en').map((term) => term.text)).toEqual([
      'a',
      'b',
      'c',
      'd',
    ]);
    expect(searchTerms('!!! :* &', 'en')).toEqual([]);
    expect(searchTerms('', 'en')).toEqual([]);
  });

  it('cuts CJK words into bigrams, leaving particles out, and splits mixed scripts', () => {
    expect(searchTerms('全文検索', 'ja').map((term) => term.text)).toEqual(['全文', '検索']);
    // One word of the query (its last): its Latin part is a prefix.
    expect(searchTerms('APIの認証', 'ja')).toEqual([
      { text: 'api', prefix: true },
      { text: '認証', prefix: false },
    ]);
    expect(searchTerms('주소 입력', 'ko').map((term) => term.text)).toEqual(['주소', '입력']);
    expect(searchTerms('検', 'ja')).toEqual([{ text: '検', prefix: true }]);
  });

  it('folds German digraphs in German spaces only', () => {
    expect(searchTerms('Groessenaenderung', 'de')[0].text).toBe('grossenanderung');
    expect(searchTerms('Groessenaenderung', 'en')[0].text).toBe('groessenaenderung');
  });

  it('corrects words of four letters or more, never CJK or numbers', () => {
    expect(correctable({ text: 'webhok', prefix: true })).toBe(true);
    expect(correctable({ text: 'api', prefix: false })).toBe(false);
    expect(correctable({ text: '検索', prefix: false })).toBe(false);
    expect(correctable({ text: '20250', prefix: false })).toBe(false);
  });
});

describe('tsqueryText', () => {
  it('ANDs the terms, a prefix as a word for the stemmer and as a prefix for simple', () => {
    const terms = searchTerms('webhook sign', 'en');
    expect(tsqueryText(terms)).toEqual({
      words: "'webhook'",
      prefixWords: "'sign'",
      prefixes: "'sign':*",
      any: "'webhook' | 'sign'",
      anyPrefixes: "'sign':*",
    });
  });

  it('ORs each term with its corrections', () => {
    const terms = searchTerms('cname recrod', 'en');
    const text = tsqueryText(terms, new Map([['recrod', ['record', 'records']]]));
    expect(text.prefixWords).toBe("('recrod' | 'record' | 'records')");
    expect(text.prefixes).toBe("('recrod':* | 'record' | 'records')");
    expect(text.any).toBe("'cname' | 'recrod' | 'record' | 'records'");
  });
});

describe('textSearchConfig', () => {
  it('stems a language PostgreSQL has a stemmer for, English without one, simple otherwise', () => {
    expect(textSearchConfig('fr')).toBe('french');
    expect(textSearchConfig('pt-br')).toBe('portuguese');
    expect(textSearchConfig(null)).toBe('english');
    expect(textSearchConfig('ja')).toBe('simple');
  });
});

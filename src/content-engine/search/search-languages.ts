/**
 * The PostgreSQL text-search configuration that stems a space's language (its `language`, one
 * of GitBook's TranslationLanguage codes). Languages without a Snowball stemmer in PostgreSQL
 * (and CJK and Thai, which segmentation handles: stemming has nothing to do there) use
 * `simple`: folded words, unstemmed. A space without a language keeps English, as before
 * languages were read: most spaces without one are written in English.
 */
const CONFIGS: Record<string, string> = {
  en: 'english',
  de: 'german',
  fr: 'french',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  'pt-br': 'portuguese',
  ru: 'russian',
  nl: 'dutch',
  sv: 'swedish',
  no: 'norwegian',
  da: 'danish',
  fi: 'finnish',
  hu: 'hungarian',
  ro: 'romanian',
  tr: 'turkish',
  el: 'greek',
  id: 'indonesian',
  lt: 'lithuanian',
  ar: 'arabic',
  hi: 'hindi',
};

/** Every configuration `textSearchConfig` may answer: names safe to write into SQL. */
export const TEXT_SEARCH_CONFIGS: ReadonlySet<string> = new Set([
  'simple',
  ...Object.values(CONFIGS),
]);

export function textSearchConfig(language: string | null): string {
  if (language === null) return 'english';
  return CONFIGS[language] ?? 'simple';
}

import { TRANSLATION_LANGUAGES } from '../../spaces/languages';
import { translationPrompt } from './ai-provider';
import { deeplSource, deeplTarget } from './deepl-provider';
import { libreTranslateCode } from './libretranslate-provider';
import { LANGUAGE_NAMES } from './translation-provider';

describe('provider language codes', () => {
  it('DeepL: upper case, a variant for targets that need one', () => {
    expect(deeplTarget('fr')).toBe('FR');
    expect(deeplTarget('en')).toBe('EN-US');
    expect(deeplTarget('pt-br')).toBe('PT-BR');
    expect(deeplTarget('no')).toBe('NB');
    expect(deeplSource('pt-br')).toBe('PT');
    expect(deeplSource('en')).toBe('EN');
  });

  it("LibreTranslate: GitBook's code except Brazilian Portuguese and Norwegian", () => {
    expect(libreTranslateCode('fr')).toBe('fr');
    expect(libreTranslateCode('pt-br')).toBe('pb');
    expect(libreTranslateCode('no')).toBe('nb');
  });

  it('every language has a name for prompts', () => {
    for (const language of TRANSLATION_LANGUAGES) expect(LANGUAGE_NAMES[language]).toBeTruthy();
  });

  it('the prompt names both languages and carries the instructions', () => {
    const prompt = translationPrompt({ source: 'en', target: 'de', instructions: 'Be formal.' });
    expect(prompt).toContain('from English (en) to German (de)');
    expect(prompt).toContain('Be formal.');
    expect(translationPrompt({ source: 'en', target: 'de', instructions: '' })).not.toContain(
      'Follow these instructions',
    );
  });
});

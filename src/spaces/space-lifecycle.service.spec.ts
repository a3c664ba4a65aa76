import { copyTitle } from './space-lifecycle.service';

/** Length as PostgreSQL's varchar(50) and JSON Schema's maxLength count it: code points. */
const codePoints = (text: string) => [...text].length;
const hasLoneSurrogate = (text: string) =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('copyTitle', () => {
  it('appends " (copy)" to a short title', () => {
    expect(copyTitle('Handbook')).toBe('Handbook (copy)');
  });

  it('keeps a title that fits exactly (43 characters) whole', () => {
    const title = 'a'.repeat(43);
    expect(copyTitle(title)).toBe(`${title} (copy)`);
    expect(copyTitle(title)).toHaveLength(50);
  });

  it('cuts a long title so that the copy has 50 characters', () => {
    const title = `${'b'.repeat(43)}${'c'.repeat(7)}`;
    expect(copyTitle(title)).toBe(`${'b'.repeat(43)} (copy)`);
  });

  it('drops the spaces left at the end of the cut', () => {
    expect(copyTitle(`${'d'.repeat(40)}   and more words`)).toBe(`${'d'.repeat(40)} (copy)`);
  });

  it('copies a copy again', () => {
    expect(copyTitle(copyTitle('Guide'))).toBe('Guide (copy) (copy)');
  });

  it('never cuts inside an emoji written with two UTF-16 units', () => {
    const copy = copyTitle('😀'.repeat(50));
    expect(hasLoneSurrogate(copy)).toBe(false);
    expect(copy).toBe(`${'😀'.repeat(43)} (copy)`);
    expect(codePoints(copy)).toBe(50);
  });

  it('never cuts an emoji sequence in two, and stays within 50 code points', () => {
    const heart = '❤️'; // two code points: the heart and a variation selector
    const family = '👨‍👩‍👧'; // five code points joined by zero-width joiners
    const heartsCopy = copyTitle(heart.repeat(25));
    expect(heartsCopy).toBe(`${heart.repeat(21)} (copy)`);
    expect(codePoints(heartsCopy)).toBeLessThanOrEqual(50);

    const familiesCopy = copyTitle(`${'e'.repeat(40)}${family}${family}`);
    expect(familiesCopy).toBe(`${'e'.repeat(40)} (copy)`);
    const oneFamily = copyTitle(`${'e'.repeat(38)}${family}x`);
    expect(oneFamily).toBe(`${'e'.repeat(38)}${family} (copy)`);
    expect(codePoints(oneFamily)).toBe(50);
  });
});

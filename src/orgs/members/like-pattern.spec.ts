import { containsPattern } from './like-pattern';

describe('containsPattern', () => {
  it.each([
    ['ada', '%ada%'],
    ['', '%%'],
    ['50%', '%50\\%%'],
    ['a_b', '%a\\_b%'],
    ['back\\slash', '%back\\\\slash%'],
    ['%_\\', '%\\%\\_\\\\%'],
  ])('%j → %j', (text, pattern) => {
    expect(containsPattern(text)).toBe(pattern);
  });
});

import { cutTexts, fitList, fitPrompt, promptChars } from './prompt-size';

describe('cutTexts', () => {
  it('cuts the longest texts first, to one length, until enough is lost', () => {
    const cut = cutTexts(['a'.repeat(100), 'b'.repeat(10), 'c'.repeat(50)], 80);
    expect(cut[1]).toBe('b'.repeat(10));
    expect(cut[0]).toMatch(/^a+…$/);
    expect(cut[2]).toMatch(/^c+…$/);
    expect(cut[0].length).toBe(cut[2].length);
    const total = cut.reduce((sum, text) => sum + text.length, 0);
    expect(total).toBeLessThanOrEqual(160 - 80);
    expect(total).toBeGreaterThan(160 - 80 - 3);
  });

  it('keeps texts whole without excess, and empties them all when nothing may stay', () => {
    expect(cutTexts(['abc', 'de'], 0)).toEqual(['abc', 'de']);
    expect(cutTexts(['abc', 'de'], 5)).toEqual(['', '']);
    expect(cutTexts(['abc', 'de'], 50)).toEqual(['', '']);
  });
});

describe('fitPrompt and fitList', () => {
  const build = (parts: string[]) => [
    { role: 'system' as const, content: 'rules' },
    { role: 'user' as const, content: parts.join('\n') },
  ];

  it('fits a conversation in the maximum by cutting its parts', () => {
    const parts = ['x'.repeat(500), 'y'.repeat(300), 'short'];
    expect(fitPrompt(parts, build, 2000)).toEqual(build(parts));
    const fitted = fitPrompt(parts, build, 400);
    expect(promptChars(fitted)).toBeLessThanOrEqual(400);
    expect(fitted[1].content).toContain('short');
  });

  it('leaves the last items out until the list fits, keeping one', () => {
    const titles = ['One', 'Two', 'Three', 'Four'];
    expect(fitList(titles, build, 100)).toEqual(build(titles));
    expect(fitList(titles, build, 15)).toEqual(build(['One', 'Two']));
    expect(fitList(titles, build, 1)).toEqual(build(['One']));
  });
});

import { mathSvg } from './math-svg';

describe('mathSvg', () => {
  it('typesets TeX as SVG paths, sized in ex', async () => {
    const math = await mathSvg('\\frac{a}{b} + \\sqrt{x}', true);
    expect(math?.svg).toMatch(/^<svg[\s\S]*<path[\s\S]*<\/svg>$/);
    expect(math!.widthEx).toBeGreaterThan(3);
    expect(math!.heightEx).toBeGreaterThan(math!.depthEx);
    expect(math!.depthEx).toBeGreaterThan(0);
  });

  it('answers undefined for what MathJax cannot read, so that the source prints instead', async () => {
    expect(await mathSvg('\\frac{a', false)).toBeUndefined();
    expect(await mathSvg('\\nosuchmacro{x}', false)).toBeUndefined();
    expect(await mathSvg('  ', false)).toBeUndefined();
  });
});

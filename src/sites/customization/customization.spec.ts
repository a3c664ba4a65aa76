import {
  applyOverridePatch,
  completeCustomization,
  customizationProblem,
  DEFAULT_CUSTOMIZATION,
  mergeCustomization,
  OverrideProblem,
} from './customization';

describe('customization', () => {
  it('has complete, valid defaults', () => {
    expect(customizationProblem(completeCustomization({}))).toBeNull();
  });

  it('completes a partial customization key by key inside containers', () => {
    const complete = completeCustomization({ styling: { theme: 'bold' }, pdf: { enabled: false } });
    expect(complete.styling).toEqual({
      ...(DEFAULT_CUSTOMIZATION.styling as object),
      theme: 'bold',
    });
    expect(complete.pdf).toEqual({ enabled: false });
    expect(customizationProblem(complete)).toBeNull();
  });

  it('replaces non-container values whole', () => {
    const base = completeCustomization({ favicon: { emoji: '📘' } });
    const merged = mergeCustomization(base, {
      favicon: { icon: { light: 'https://a.test/l.png', dark: 'https://a.test/d.png' } },
    });
    expect(merged.favicon).toEqual({
      icon: { light: 'https://a.test/l.png', dark: 'https://a.test/d.png' },
    });
  });

  it.each([
    [{ styling: { theme: 'neon' } }, /styling.theme must be one of clean, muted, bold, gradient/],
    [
      { styling: { primaryColor: { light: 'blue', dark: '#000' } } },
      /styling.primaryColor.light must match pattern/,
    ],
    [{ styling: { corners: 'square' } }, /styling.corners must be one of/],
    [{ ai: { mode: 'chat' } }, /ai.mode must be one of none, search, assistant/],
    [{ externalLinks: { target: 'new' } }, /externalLinks.target must be one of self, blank/],
    [
      { announcement: { enabled: true, message: 'x', style: 'info' } },
      /announcement.message must NOT have fewer than 2 characters/,
    ],
    [
      { footer: { groups: [], copyright: 'c'.repeat(301) } },
      /footer.copyright must NOT have more than 300/,
    ],
    [{ unknownSetting: true }, /unknown property unknownSetting/],
    [{ internationalization: { locale: 'it' } }, /internationalization.locale must be one of/],
    [
      {
        header: {
          preset: 'default',
          links: [{ title: 'Beta', to: null, links: [], condition: 'user.isBeta' }],
        },
      },
      /header.links.0.condition: Unknown name "user"/,
    ],
  ])('refuses %j', (written, message) => {
    expect(customizationProblem(completeCustomization(written))).toMatch(message);
  });

  it('accepts a custom font definition and content links', () => {
    const written = {
      styling: {
        font: {
          id: 'brand',
          custom: true,
          fontFamily: 'Brand Sans',
          fontFaces: [
            { weight: 400, sources: [{ url: 'https://fonts.test/brand.woff2', format: 'woff2' }] },
          ],
        },
      },
      header: {
        preset: 'default',
        links: [
          {
            title: 'Home',
            style: 'link',
            to: { kind: 'url', url: 'https://example.com' },
            links: [],
          },
        ],
      },
      announcement: { enabled: true, message: 'Hello', style: 'info' },
    };
    expect(customizationProblem(completeCustomization(written))).toBeNull();
  });
});

describe('applyOverridePatch', () => {
  it('sets, keeps and removes overrides', () => {
    const first = applyOverridePatch(
      {},
      { title: 'Variant', styling: { theme: 'bold', sidebar: { list: 'pill' } } },
    );
    expect(first).toEqual({
      title: 'Variant',
      styling: { theme: 'bold', sidebar: { list: 'pill' } },
    });
    const second = applyOverridePatch(first, { styling: { theme: null, sidebar: { list: null } } });
    expect(second).toEqual({ title: 'Variant' });
    expect(applyOverridePatch(second, { title: null })).toEqual({});
  });

  it('refuses settings a site space cannot override', () => {
    expect(() => applyOverridePatch({}, { ai: { mode: 'none' } })).toThrow(OverrideProblem);
  });
});

import { completeCustomization } from './customization';
import {
  DEFAULT_CODE_THEME,
  pageActionItems,
  publishedCustomization,
} from './published-customization';

describe('publishedCustomization', () => {
  it('gives the defaults what 0.201.0 requires and keeps what 0.146.0 requires', () => {
    const complete = completeCustomization({});
    const published = publishedCustomization(complete);
    expect(published.socialAccounts).toEqual([]);
    expect((published.styling as Record<string, unknown>).codeTheme).toEqual(DEFAULT_CODE_THEME);
    // The defaults: markdown on, PDF on, no AI, no MCP, no edit link.
    expect(published.pageActions).toEqual({
      externalAI: false,
      markdown: true,
      mcp: false,
      items: ['markdown', 'pdf'],
    });
    expect(published.pdf).toEqual(complete.pdf);
    expect(published.git).toEqual(complete.git);
  });

  it('keeps every other setting as written', () => {
    const complete = completeCustomization({
      title: 'Handbook',
      styling: { theme: 'bold' },
      themes: { default: 'dark', toggeable: false },
    });
    const published = publishedCustomization(complete);
    expect(published.title).toBe('Handbook');
    expect(published.themes).toEqual({ default: 'dark', toggeable: false });
    expect(published.styling).toEqual({
      ...(complete.styling as object),
      codeTheme: DEFAULT_CODE_THEME,
    });
  });

  it('turns the 0.146.0 switches into page action items, in GitBook order', () => {
    expect(
      pageActionItems(
        completeCustomization({
          ai: { mode: 'assistant' },
          pageActions: { externalAI: true, markdown: false, mcp: true },
          git: { showEditLink: true },
          pdf: { enabled: false },
        }),
      ),
    ).toEqual(['assistant', 'external-ai', 'mcp', 'git']);
    expect(
      pageActionItems(
        completeCustomization({
          ai: { mode: 'search' },
          pageActions: { externalAI: false, markdown: false, mcp: false },
          pdf: { enabled: false },
        }),
      ),
    ).toEqual([]);
  });
});

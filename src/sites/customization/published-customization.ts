import type { Customization } from './customization';

/**
 * A customization as the published side reads it: GitBook's `SiteCustomizationSettings` of API
 * 0.201.0, which GitBook's renderer reads (and dereferences without guards), made from the
 * 0.146.0 settings that Bindery keeps and its customization operations speak. 0.201.0 adds
 * required settings, given here:
 *
 * - `pageActions.items`, the ordered list of page actions, from the 0.146.0 switches
 *   (`pageActions.externalAI`, `markdown`, `mcp`, `pdf.enabled`, `git.showEditLink`,
 *   `ai.mode: "assistant"`), which stay beside it;
 * - `styling.codeTheme`: GitBook's default themes;
 * - `socialAccounts`: none (Bindery keeps none).
 *
 * Nothing is removed, so the answer conforms to both versions.
 */

/** GitBook's `CustomizationPageActionType`, in its order. */
export const PAGE_ACTION_TYPES = [
  'assistant',
  'external-ai',
  'markdown',
  'mcp',
  'git',
  'pdf',
] as const;
export type PageActionType = (typeof PAGE_ACTION_TYPES)[number];

/** GitBook's default code highlighting: its own light and dark themes, for code and OpenAPI. */
export const DEFAULT_CODE_THEME = Object.freeze({
  default: { light: 'default-light', dark: 'default-dark' },
  openapi: { light: 'default-light', dark: 'default-dark' },
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `customization` (complete, 0.146.0) completed as 0.201.0's `SiteCustomizationSettings`. */
export function publishedCustomization(customization: Customization): Customization {
  const { styling, pageActions } = customization;
  return {
    ...customization,
    styling: {
      ...(isRecord(styling) ? styling : {}),
      codeTheme:
        (isRecord(styling) ? styling.codeTheme : undefined) ?? structuredClone(DEFAULT_CODE_THEME),
    },
    pageActions: {
      ...(isRecord(pageActions) ? pageActions : {}),
      items: pageActionItems(customization),
    },
    socialAccounts: customization.socialAccounts ?? [],
  };
}

/** The page actions a 0.146.0 customization turns on, in GitBook's order. */
export function pageActionItems(customization: Customization): PageActionType[] {
  const flag = (container: string, key: string): boolean => {
    const value = customization[container];
    return isRecord(value) && value[key] === true;
  };
  const ai = customization.ai;
  const on: Record<PageActionType, boolean> = {
    assistant: isRecord(ai) && ai.mode === 'assistant',
    'external-ai': flag('pageActions', 'externalAI'),
    markdown: flag('pageActions', 'markdown'),
    mcp: flag('pageActions', 'mcp'),
    git: flag('git', 'showEditLink'),
    pdf: flag('pdf', 'enabled'),
  };
  return PAGE_ACTION_TYPES.filter((type) => on[type]);
}

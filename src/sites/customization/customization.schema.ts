/**
 * GitBook's `SiteCustomizationSettings` (0.146.0) as a draft-07 JSON Schema for ajv, with the
 * enums of REFERENCE §11. Objects accept only the keys GitBook defines.
 */

type Schema = Record<string, unknown>;

const string = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const boolean: Schema = { type: 'boolean' };
const oneOf = (values: readonly string[]): Schema => ({ type: 'string', enum: [...values] });
const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const enabled = object({ enabled: boolean }, ['enabled']);

export const URL_SCHEMA: Schema = string({ format: 'uri', maxLength: 2048 });
const color: Schema = string({ pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$' });
const themedColor = object({ light: color, dark: color }, ['light', 'dark']);
const themedUrl = object({ light: URL_SCHEMA, dark: URL_SCHEMA }, ['light', 'dark']);

export const CUSTOMIZATION_THEMES = ['clean', 'muted', 'bold', 'gradient'] as const;
export const CUSTOMIZATION_FONTS = [
  'ABCFavorit',
  'Inter',
  'Roboto',
  'RobotoSlab',
  'OpenSans',
  'SourceSansPro',
  'Lato',
  'Ubuntu',
  'Raleway',
  'Merriweather',
  'Overpass',
  'NotoSans',
  'IBMPlexSerif',
  'Poppins',
  'FiraSans',
] as const;
export const CUSTOMIZATION_MONOSPACE_FONTS = [
  'FiraCode',
  'IBMPlexMono',
  'JetBrainsMono',
  'SourceCodePro',
  'RobotoMono',
  'SpaceMono',
  'DMMono',
  'Inconsolata',
] as const;
export const CUSTOMIZATION_LOCALES = [
  'en',
  'fr',
  'es',
  'zh',
  'ja',
  'de',
  'nl',
  'no',
  'pt-br',
  'ru',
] as const;

const fontDefinition = object(
  {
    id: string({ minLength: 1 }),
    custom: boolean,
    fontFamily: string({ minLength: 1, maxLength: 50 }),
    fontFaces: {
      type: 'array',
      minItems: 1,
      items: object(
        {
          weight: { type: 'integer', minimum: 1, maximum: 1000 },
          sources: {
            type: 'array',
            minItems: 1,
            items: object({ url: URL_SCHEMA, format: oneOf(['woff2', 'woff']) }, ['url']),
          },
        },
        ['weight', 'sources'],
      ),
    },
  },
  ['id', 'custom', 'fontFamily', 'fontFaces'],
);

const contentRef: Schema = {
  oneOf: [
    object({ kind: { const: 'file' }, file: string() }, ['kind', 'file']),
    object({ kind: { const: 'url' }, url: string() }, ['kind', 'url']),
    object({ kind: { const: 'page' }, page: string(), space: string() }, ['kind', 'page']),
    object({ kind: { const: 'anchor' }, anchor: string(), space: string(), page: string() }, [
      'kind',
      'anchor',
    ]),
    object({ kind: { const: 'user' }, user: string() }, ['kind', 'user']),
    object({ kind: { const: 'collection' }, collection: string() }, ['kind', 'collection']),
    object({ kind: { const: 'space' }, space: string() }, ['kind', 'space']),
    object({ kind: { const: 'reusable-content' }, reusableContent: string(), space: string() }, [
      'kind',
      'reusableContent',
    ]),
    object({ kind: { const: 'openapi' }, spec: string() }, ['kind', 'spec']),
  ],
};

const contentLink = object({ title: string({ maxLength: 64 }), to: contentRef }, ['title', 'to']);

/** Conditions of header links: checked as expressions by the service, bounded here. */
export const EXPRESSION_SCHEMA: Schema = string({ maxLength: 1024 });

const headerItem = object(
  {
    title: string({ maxLength: 64 }),
    style: oneOf(['link', 'button-primary', 'button-secondary']),
    to: { oneOf: [contentRef, { type: 'null' }] },
    links: { type: 'array', items: contentLink },
    condition: EXPRESSION_SCHEMA,
  },
  ['title', 'links', 'to'],
);

export const FAVICON_SCHEMA: Schema = {
  oneOf: [
    object({ icon: themedUrl }, ['icon']),
    object({ emoji: string({ minLength: 1, maxLength: 50 }) }, ['emoji']),
    object({}),
  ],
};

/** The properties of `styling`, each optional here; `required` lists what a full one needs. */
export const STYLING_PROPERTIES: Record<string, Schema> = {
  theme: oneOf(CUSTOMIZATION_THEMES),
  primaryColor: themedColor,
  tint: object({ color: themedColor }, ['color']),
  infoColor: themedColor,
  successColor: themedColor,
  warningColor: themedColor,
  dangerColor: themedColor,
  corners: oneOf(['straight', 'rounded', 'circular']),
  depth: oneOf(['subtle', 'flat']),
  links: oneOf(['default', 'accent']),
  font: { oneOf: [oneOf(CUSTOMIZATION_FONTS), fontDefinition] },
  monospaceFont: { oneOf: [oneOf(CUSTOMIZATION_MONOSPACE_FONTS), fontDefinition] },
  background: oneOf(['plain', 'match']),
  icons: oneOf(['regular', 'solid', 'duotone', 'light', 'thin']),
  sidebar: object(
    { background: oneOf(['default', 'filled']), list: oneOf(['default', 'pill', 'line']) },
    ['background', 'list'],
  ),
  search: oneOf(['prominent', 'subtle']),
};

const STYLING_REQUIRED = [
  'theme',
  'primaryColor',
  'infoColor',
  'successColor',
  'warningColor',
  'dangerColor',
  'corners',
  'depth',
  'links',
  'font',
  'monospaceFont',
  'background',
  'icons',
  'sidebar',
  'search',
];

/** The top-level properties of a customization, each optional here. */
export const CUSTOMIZATION_PROPERTIES: Record<string, Schema> = {
  title: string({ minLength: 2, maxLength: 128 }),
  styling: object(STYLING_PROPERTIES, STYLING_REQUIRED),
  internationalization: object({ locale: oneOf(CUSTOMIZATION_LOCALES) }, ['locale']),
  favicon: FAVICON_SCHEMA,
  header: object(
    {
      preset: oneOf(['default', 'bold', 'contrast', 'custom', 'none']),
      logo: themedUrl,
      backgroundColor: themedColor,
      linkColor: themedColor,
      links: { type: 'array', items: headerItem },
    },
    ['preset', 'links'],
  ),
  footer: object(
    {
      logo: themedUrl,
      groups: {
        type: 'array',
        items: object({ title: string(), links: { type: 'array', items: contentLink } }, [
          'title',
          'links',
        ]),
      },
      copyright: string({ maxLength: 300 }),
    },
    ['groups'],
  ),
  announcement: object(
    {
      enabled: boolean,
      message: string({ minLength: 2, maxLength: 128 }),
      link: contentLink,
      style: oneOf(['info', 'warning', 'danger', 'success']),
    },
    ['enabled', 'message', 'style'],
  ),
  themes: object({ default: oneOf(['light', 'dark']), toggeable: boolean }, [
    'default',
    'toggeable',
  ]),
  pdf: enabled,
  feedback: enabled,
  ai: object({ mode: oneOf(['none', 'search', 'assistant']) }, ['mode']),
  advancedCustomization: enabled,
  git: object({ showEditLink: boolean }, ['showEditLink']),
  pageActions: object({ externalAI: boolean, markdown: boolean, mcp: boolean }, [
    'externalAI',
    'markdown',
    'mcp',
  ]),
  externalLinks: object({ target: oneOf(['self', 'blank']) }, ['target']),
  pagination: enabled,
  trademark: enabled,
  privacyPolicy: object({ url: URL_SCHEMA }),
  socialPreview: object({ url: URL_SCHEMA }),
  insights: object({ trackingCookie: boolean }, ['trackingCookie']),
};

/** A complete `SiteCustomizationSettings`. */
export const CUSTOMIZATION_SCHEMA: Schema = object(CUSTOMIZATION_PROPERTIES, [
  'styling',
  'internationalization',
  'favicon',
  'header',
  'footer',
  'themes',
  'pdf',
  'feedback',
  'ai',
  'advancedCustomization',
  'trademark',
  'externalLinks',
  'pagination',
  'pageActions',
  'git',
  'privacyPolicy',
  'socialPreview',
  'insights',
]);

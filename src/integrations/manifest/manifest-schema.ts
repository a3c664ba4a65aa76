import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The structured parts of GitBook's `PublishIntegration` (0.202.0) as draft-07 JSON Schemas
 * for ajv: blocks, content sources, configurations, external links, content security policy
 * and secrets. The flat fields are the DTO's (class-validator).
 */

type Schema = Record<string, unknown>;

const string = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
/** GitBook's names of blocks, sources and components: `^[a-zA-Z0-9-_.]+$`, as integration names. */
const identifier = string({ minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9-_.]+$' });
const url = string({ format: 'uri', maxLength: 2048 });

const component = object({ componentId: identifier }, ['componentId']);

/** `IntegrationConfigurationSchema`: each property titled, typed, with its own options. */
const property: Schema = {
  type: 'object',
  required: ['type'],
  properties: {
    title: string({ minLength: 2, maxLength: 50 }),
    description: string({ maxLength: 100 }),
    type: { enum: ['string', 'number', 'boolean', 'button'] },
  },
  allOf: [
    {
      if: { properties: { type: { const: 'string' } } },
      then: {
        properties: {
          default: string(),
          completion_url: string(),
          enum: { type: 'array', items: string() },
        },
      },
    },
    {
      if: { properties: { type: { const: 'number' } } },
      then: { properties: { default: { type: 'number' } } },
    },
    {
      if: { properties: { type: { const: 'boolean' } } },
      then: { properties: { default: { type: 'boolean' } } },
    },
    {
      if: { properties: { type: { const: 'button' } } },
      then: {
        required: ['callback_url', 'button_text'],
        properties: { callback_url: string(), button_text: string() },
      },
    },
  ],
};
const configurationSchema = object(
  {
    properties: { type: 'object', maxProperties: 50, additionalProperties: property },
    required: { type: 'array', uniqueItems: true, items: string() },
  },
  ['properties'],
);
const configuration: Schema = { oneOf: [configurationSchema, component] };

const block = object(
  {
    id: identifier,
    title: string({ minLength: 2, maxLength: 40 }),
    description: string({ maxLength: 150 }),
    icon: string({ maxLength: 2048 }),
    urlUnfurl: { type: 'array', maxItems: 50, items: string({ maxLength: 2048 }) },
    markdown: object({ codeblock: string({ minLength: 1 }), body: string() }, [
      'codeblock',
      'body',
    ]),
  },
  ['id', 'title'],
);

const contentSource = object(
  {
    id: identifier,
    title: string({ minLength: 2, maxLength: 40 }),
    description: string({ maxLength: 150 }),
    icon: string({ maxLength: 2048 }),
    configuration: component,
  },
  ['id', 'title', 'configuration'],
);

const CSP_DIRECTIVES = [
  'base-uri',
  'block-all-mixed-content',
  'child-src',
  'connect-src',
  'default-src',
  'font-src',
  'form-action',
  'frame-ancestors',
  'frame-src',
  'img-src',
  'manifest-src',
  'media-src',
  'navigate-to',
  'object-src',
  'plugin-types',
  'prefetch-src',
  'referrer',
  'report-to',
  'report-uri',
  'require-trusted-types-for',
  'sandbox',
  'script-src',
  'script-src-attr',
  'script-src-elem',
  'style-src',
  'style-src-attr',
  'style-src-elem',
  'trusted-types',
  'upgrade-insecure-requests',
  'worker-src',
];

export const MANIFEST_PARTS = {
  blocks: { type: 'array', maxItems: 50, items: block },
  contentSources: { type: 'array', maxItems: 50, items: contentSource },
  configurations: object({ account: configuration, space: configuration, site: configuration }),
  externalLinks: {
    type: 'array',
    maxItems: 5,
    items: object({ url, label: string({ minLength: 1, maxLength: 100 }) }, ['url', 'label']),
  },
  contentSecurityPolicy: {
    oneOf: [
      string({ maxLength: 4096 }),
      object(Object.fromEntries(CSP_DIRECTIVES.map((name) => [name, string({ maxLength: 2048 })]))),
    ],
  },
  secrets: {
    type: 'object',
    maxProperties: 20,
    propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
    additionalProperties: string({ maxLength: 8192 }),
  },
} as const satisfies Record<string, Schema>;

export type ManifestPart = keyof typeof MANIFEST_PARTS;

const ajv = new Ajv({ allErrors: false, strict: false });
addFormats(ajv);
const validators = Object.fromEntries(
  Object.entries(MANIFEST_PARTS).map(([part, schema]) => [part, ajv.compile(schema)]),
) as Record<ManifestPart, ReturnType<typeof ajv.compile>>;

function describe(field: string, error: ErrorObject): string {
  const at = `${field}${error.instancePath.replace(/\//g, '.')}`;
  if (error.keyword === 'additionalProperties') {
    return `${at} has an unknown field ${String(error.params.additionalProperty)}`;
  }
  if (error.keyword === 'enum') {
    return `${at} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`;
  }
  return `${at} ${error.message ?? 'is invalid'}`;
}

/** What is wrong with one part of a manifest, or null when it is valid. */
export function manifestPartProblem(part: ManifestPart, value: unknown): string | null {
  const validate = validators[part];
  if (validate(value)) return null;
  return describe(part, validate.errors![0]);
}

import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { conditionProblem } from '../../platform/conditions/condition';
import { CUSTOMIZATION_SCHEMA } from './customization.schema';

/**
 * Site customization (GitBook's `SiteCustomizationSettings`): the defaults of a site that was
 * never customized, the completion of a written one over those defaults, its validation, and
 * the overrides a site space applies over its site's.
 *
 * Values merge by *container*: the objects listed in {@link CONTAINERS} merge key by key, any
 * other value (a color, a favicon, a list of links) replaces the one below it as a whole.
 */

export type Customization = Record<string, unknown>;

/** What a self-hosted site looks like until customized: GitBook's look, no GitBook branding. */
export const DEFAULT_CUSTOMIZATION: Customization = Object.freeze({
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#02A36A', dark: '#02A36A' },
    warningColor: { light: '#D67B05', dark: '#D67B05' },
    dangerColor: { light: '#DC2626', dark: '#DC2626' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  // No AI service behind a self-hosted instance.
  ai: { mode: 'none' },
  advancedCustomization: { enabled: true },
  git: { showEditLink: false },
  pageActions: { externalAI: false, markdown: true, mcp: false },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  // "Powered by GitBook" would be false advertising.
  trademark: { enabled: false },
  privacyPolicy: {},
  socialPreview: {},
  insights: { trackingCookie: true },
});

/** Objects that merge key by key (dotted paths); everything else is replaced whole. */
const CONTAINERS = new Set([
  'styling',
  'styling.sidebar',
  'internationalization',
  'header',
  'footer',
  'themes',
  'pdf',
  'feedback',
  'ai',
  'advancedCustomization',
  'git',
  'pageActions',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
  'insights',
]);

/**
 * What a site space may override (`overrideSiteSpaceCustomizationById`): these top-level keys,
 * and within the containers among them any key of the site's customization.
 */
const OVERRIDABLE = new Set([
  'title',
  'styling',
  'internationalization',
  'favicon',
  'announcement',
  'header',
  'footer',
  'themes',
  'pdf',
  'feedback',
  'git',
  'externalLinks',
  'pagination',
  'trademark',
  'privacyPolicy',
  'socialPreview',
]);

const ajv = new Ajv({ allErrors: false, strict: true });
addFormats(ajv);
const validateComplete = ajv.compile(CUSTOMIZATION_SCHEMA);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `over` applied on `base`: containers merge key by key, other values replace. */
export function mergeCustomization(
  base: Customization,
  over: Customization,
  prefix = '',
): Customization {
  const merged: Customization = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const path = prefix + key;
    const below = merged[key];
    merged[key] =
      CONTAINERS.has(path) && isPlainObject(value) && isPlainObject(below)
        ? mergeCustomization(below, value, `${path}.`)
        : value;
  }
  return merged;
}

/** A written customization completed over the defaults: what the site then has. */
export function completeCustomization(written: Customization): Customization {
  return mergeCustomization(structuredClone(DEFAULT_CUSTOMIZATION), written);
}

/** Why `customization` is not a complete, valid one, or null when it is. */
export function customizationProblem(customization: Customization): string | null {
  if (!validateComplete(customization)) return describe(validateComplete.errors ?? []);
  const header = customization.header as { links?: { condition?: string }[] } | undefined;
  for (const [i, link] of (header?.links ?? []).entries()) {
    if (link.condition === undefined || link.condition === '') continue;
    const problem = conditionProblem(link.condition);
    if (problem !== null) return `header.links.${i}.condition: ${problem}`;
  }
  return null;
}

/**
 * A site space's overrides after a PATCH: a value sets the override, null removes it (in a
 * container, null removes that key's override), absent keeps it. Throws a message for a key a
 * site space cannot override.
 */
export function applyOverridePatch(
  current: Customization,
  patch: Customization,
  prefix = '',
): Customization {
  const next: Customization = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    const path = prefix + key;
    if (prefix === '' && !OVERRIDABLE.has(key)) {
      throw new OverrideProblem(`${key} cannot be overridden for a site space.`);
    }
    if (value === null) {
      delete next[key];
    } else if (CONTAINERS.has(path) && isPlainObject(value)) {
      const below = isPlainObject(next[key]) ? (next[key] as Customization) : {};
      const merged = applyOverridePatch(below, value, `${path}.`);
      if (Object.keys(merged).length === 0) delete next[key];
      else next[key] = merged;
    } else {
      next[key] = value;
    }
  }
  return next;
}

export class OverrideProblem extends Error {}

function describe(errors: ErrorObject[]): string {
  const error = errors[0];
  if (!error) return 'The customization is invalid.';
  const where = error.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'customization';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return `${where}: unknown property ${String(params.additionalProperty)}.`;
  }
  if (error.keyword === 'enum') {
    return `${where} must be one of ${(params.allowedValues as unknown[]).join(', ')}.`;
  }
  return `${where} ${error.message ?? 'is invalid'}.`;
}

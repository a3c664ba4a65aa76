import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { posix } from 'node:path';
import { plain } from './page-head';

/*
 * GitBook's site configuration in Git Sync (`GitSyncSiteConfig`): `gitbook-docs.yaml` (or, as
 * GitBook first named it, `docs.yaml`) at the site's project directory names the site and maps
 * the repository's directories onto its structure: section groups, sections, spaces (each with
 * the directory its content is read from) and external links, each node known from one sync to
 * the next by its `key`. Read and checked here with GitBook's rules, and written in GitBook's
 * form (js-yaml's dump, each node's keys in the order GitBook writes them).
 */

export const SITE_CONFIG_FILES = ['gitbook-docs.yaml', 'docs.yaml'] as const;
export const SITE_CONFIG_SCHEMA = 'https://api.gitbook.com/gitbook-docs.yaml';

export type Localized = Record<string, string>;

export interface SiteConfigSpace {
  type: 'space';
  key: string;
  title: string;
  localizedTitle?: Localized;
  path: string;
  default?: boolean;
  hidden?: boolean;
  draft?: boolean;
  condition?: string;
  /** The directory the space's content is read from (null: not in this repository). */
  content: { directory: string | null; language?: string };
}

export interface SiteConfigSection {
  type: 'section';
  key: string;
  title: string;
  localizedTitle?: Localized;
  description?: string;
  localizedDescription?: Localized;
  icon?: string;
  default?: boolean;
  path: string;
  condition?: string;
  children: SiteConfigSpace[];
}

export interface SiteConfigSectionGroup {
  type: 'section-group';
  key: string;
  title: string;
  localizedTitle?: Localized;
  icon?: string;
  draft?: boolean;
  children: (SiteConfigSectionGroup | SiteConfigSection | SiteConfigExternalLink)[];
}

export interface SiteConfigExternalLink {
  type: 'external-link';
  key: string;
  title: string;
  localizedTitle?: Localized;
  description?: string;
  localizedDescription?: Localized;
  icon?: string;
  url: string;
  draft?: boolean;
  condition?: string;
}

export type SiteConfigNode =
  SiteConfigSectionGroup | SiteConfigSection | SiteConfigSpace | SiteConfigExternalLink;

export interface SiteConfig {
  $schema?: string;
  version?: 1;
  site: { title: string; structure: SiteConfigNode[] };
}

/** The keys of each node type, in the order GitBook writes them. */
const NODE_KEYS: Record<SiteConfigNode['type'], readonly string[]> = {
  'section-group': ['type', 'key', 'title', 'localizedTitle', 'icon', 'draft', 'children'],
  section: [
    'type',
    'key',
    'title',
    'localizedTitle',
    'description',
    'localizedDescription',
    'icon',
    'path',
    'default',
    'condition',
    'children',
  ],
  space: [
    'type',
    'key',
    'title',
    'localizedTitle',
    'path',
    'default',
    'hidden',
    'draft',
    'condition',
    'content',
  ],
  'external-link': [
    'type',
    'key',
    'title',
    'localizedTitle',
    'description',
    'localizedDescription',
    'icon',
    'url',
    'draft',
    'condition',
  ],
};

/** A site configuration read, or why it cannot be (GitBook fails such a sync, naming the node). */
export type SiteConfigRead = { config: SiteConfig } | { errors: string[] };

export function readSiteConfig(text: string): SiteConfigRead {
  let parsed: unknown;
  try {
    parsed = load(text, { schema: CORE_SCHEMA, maxDepth: 30 });
  } catch (error) {
    return { errors: [`not YAML: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const errors: string[] = [];
  if (!isObject(parsed) || !isObject(parsed.site)) return { errors: ['site: missing'] };
  const site = parsed.site;
  if (typeof site.title !== 'string' || site.title === '') errors.push('site.title: missing');
  if (!Array.isArray(site.structure)) errors.push('site.structure: not a list');
  const structure = Array.isArray(site.structure) ? site.structure : [];
  const nodes = structure.map((node, i) => readNode(node, `site.structure[${i}]`, errors, 0));
  if (errors.length > 0) return { errors };
  const config: SiteConfig = {
    ...(typeof parsed.$schema === 'string' ? { $schema: parsed.$schema } : {}),
    ...(parsed.version === 1 ? { version: 1 as const } : {}),
    site: { title: site.title as string, structure: nodes as SiteConfigNode[] },
  };
  errors.push(...checkRules(config));
  return errors.length > 0 ? { errors } : { config };
}

function readNode(value: unknown, at: string, errors: string[], groupDepth: number): unknown {
  if (!isObject(value)) {
    errors.push(`${at}: not a node`);
    return value;
  }
  const type = value.type as string;
  const allowed = NODE_KEYS[type as SiteConfigNode['type']];
  if (!allowed) {
    errors.push(`${at}: unknown type ${JSON.stringify(value.type)}`);
    return value;
  }
  const name = `${at} (${typeof value.key === 'string' ? value.key : type})`;
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) errors.push(`${name}: unknown property ${key}`);
  }
  if (typeof value.key !== 'string' || value.key === '') errors.push(`${at}: key missing`);
  if (typeof value.title !== 'string' || value.title === '') errors.push(`${name}: title missing`);
  if ((type === 'space' || type === 'section') && typeof value.path !== 'string') {
    errors.push(`${name}: path missing`);
  }
  if (type === 'external-link' && !/^https?:\/\//i.test(String(value.url ?? ''))) {
    errors.push(`${name}: url must be an absolute HTTP(S) URL`);
  }
  if (type === 'space') {
    const content = value.content;
    if (!isObject(content) || !('directory' in content)) {
      errors.push(`${name}: content.directory missing`);
    } else if (content.directory !== null && typeof content.directory !== 'string') {
      errors.push(`${name}: content.directory must be a path or null`);
    } else if (
      typeof content.directory === 'string' &&
      content.directory.split('/').includes('..')
    ) {
      errors.push(`${name}: content.directory may not leave the project directory`);
    }
  }
  const children = value.children;
  if (children !== undefined) {
    if (!Array.isArray(children)) errors.push(`${name}: children must be a list`);
    else {
      const accepted =
        type === 'section'
          ? ['space']
          : type === 'section-group'
            ? ['section', 'external-link', ...(groupDepth === 0 ? ['section-group'] : [])]
            : [];
      children.forEach((child, i) => {
        const childAt = `${name}.children[${i}]`;
        if (isObject(child) && !accepted.includes(child.type as string)) {
          errors.push(`${childAt}: a ${type} cannot hold a ${String(child.type)}`);
        }
        readNode(child, childAt, errors, type === 'section-group' ? groupDepth + 1 : groupDepth);
      });
    }
  }
  return value;
}

/** GitBook's rules across the file (see GitSyncSiteStructure). */
function checkRules(config: SiteConfig): string[] {
  const errors: string[] = [];
  const keys = new Set<string>();
  const languages = new Map<string, string | undefined>();
  const visit = (nodes: readonly SiteConfigNode[]) => {
    for (const node of nodes) {
      if (keys.has(node.key)) errors.push(`${node.key}: key used twice`);
      keys.add(node.key);
      if (node.type === 'space' && typeof node.content.directory === 'string') {
        const directory = configDirectory(node.content.directory);
        if (languages.has(directory) && languages.get(directory) !== node.content.language) {
          errors.push(`${node.key}: ${directory} is read in two languages`);
        }
        languages.set(directory, node.content.language);
      }
      if ('children' in node && node.children) visit(node.children);
    }
  };
  visit(config.site.structure);
  const top = config.site.structure;
  const sections = allSections(top);
  if (sections.length > 0) {
    if (top.some((node) => node.type === 'space')) {
      errors.push('site.structure: a site with sections lists no space at its top level');
    }
    if (sections.filter((section) => section.default).length !== 1) {
      errors.push('site.structure: exactly one section is the default');
    }
    for (const section of sections) {
      const spaces = section.children ?? [];
      if (spaces.length > 0 && spaces.filter((space) => space.default).length !== 1) {
        errors.push(`${section.key}: exactly one of its spaces is the default`);
      }
    }
  } else {
    if (top.some((node) => node.type === 'external-link')) {
      errors.push('site.structure: external links need a site with sections');
    }
    const spaces = top.filter((node): node is SiteConfigSpace => node.type === 'space');
    if (spaces.length > 0 && spaces.filter((space) => space.default).length !== 1) {
      errors.push('site.structure: exactly one top-level space is the default');
    }
  }
  return errors;
}

/** Every section of a structure, in order, groups included. */
export function allSections(nodes: readonly SiteConfigNode[]): SiteConfigSection[] {
  return nodes.flatMap((node) =>
    node.type === 'section'
      ? [node]
      : node.type === 'section-group'
        ? allSections(node.children ?? [])
        : [],
  );
}

/** Every space of a structure, in order. */
export function allSpaces(nodes: readonly SiteConfigNode[]): SiteConfigSpace[] {
  return nodes.flatMap((node) =>
    node.type === 'space'
      ? [node]
      : node.type === 'section'
        ? (node.children ?? [])
        : node.type === 'section-group'
          ? allSpaces(node.children ?? [])
          : [],
  );
}

/**
 * A space's `content.directory` as a path from the repository's root: relative to the site's
 * project directory `projectDirectory` (`./guides`), or from the root with a leading slash.
 */
export function configDirectory(directory: string, projectDirectory = ''): string {
  const path = directory.startsWith('/')
    ? posix.normalize(directory.slice(1))
    : posix.normalize(posix.join(projectDirectory, directory));
  const clean = path.replace(/\/+$/, '');
  return clean === '.' ? '' : clean;
}

/** The configuration in GitBook's form. */
export function renderSiteConfig(config: SiteConfig): string {
  const ordered = {
    ...(config.$schema !== undefined ? { $schema: config.$schema } : {}),
    ...(config.version !== undefined ? { version: config.version } : {}),
    site: { title: config.site.title, structure: config.site.structure.map(orderNode) },
  };
  return dump(plain(ordered));
}

function orderNode(node: SiteConfigNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const source = node as unknown as Record<string, unknown>;
  for (const key of NODE_KEYS[node.type]) {
    const value = source[key];
    if (value === undefined) continue;
    if (key === 'children') out.children = (value as SiteConfigNode[]).map(orderNode);
    else if (key === 'content') {
      const content = value as SiteConfigSpace['content'];
      out.content = {
        directory: content.directory,
        ...(content.language !== undefined ? { language: content.language } : {}),
      };
    } else out[key] = value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

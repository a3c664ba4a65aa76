import { registerDecorator, ValidationOptions } from 'class-validator';
import { charCount } from '../../platform/validation/chars';
import type { JSONDocument } from './document';

export const EMPTY_DOCUMENT: JSONDocument = Object.freeze({
  object: 'document',
  data: {},
  nodes: [],
}) as JSONDocument;

export interface DocumentLimits {
  /** Largest document, in bytes of its JSON. */
  maxBytes: number;
  /** Deepest nesting of nodes (a top-level block is at depth 1). */
  maxDepth: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxBytes: 200 * 1024, maxDepth: 64 };

type NodeKind = 'block' | 'inline' | 'text';

/** Which nodes may sit inside which: blocks hold anything, inlines hold inlines and text. */
const CHILDREN: Record<'document' | 'block' | 'inline', NodeKind[]> = {
  document: ['block'],
  block: ['block', 'inline', 'text'],
  inline: ['inline', 'text'],
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The first structural problem of `value` as a rich document, named by its JSON path under
 * `path` (`instructions.nodes[2].type must be a string`); null when there is none. It checks
 * the shape every node shares (GitBook's required fields), not each block type's own data.
 */
export function documentProblem(
  value: unknown,
  path: string,
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
): string | null {
  if (!isObject(value)) return `${path} must be an object`;
  if (value.object !== 'document') return `${path}.object must be "document"`;
  if (!isObject(value.data)) return `${path}.data must be an object`;
  const { schemaVersion } = value.data;
  if (schemaVersion !== undefined && !Number.isInteger(schemaVersion)) {
    return `${path}.data.schemaVersion must be an integer`;
  }
  const problem = nodesProblem(value.nodes, `${path}.nodes`, CHILDREN.document, 1, limits);
  if (problem) return problem;
  return sizeProblem(value, path, limits.maxBytes);
}

function nodesProblem(
  nodes: unknown,
  path: string,
  allowed: NodeKind[],
  depth: number,
  limits: DocumentLimits,
): string | null {
  if (!Array.isArray(nodes)) return `${path} must be an array`;
  if (nodes.length > 0 && depth > limits.maxDepth) {
    return `${path} is nested too deeply (at most ${limits.maxDepth} levels of nodes)`;
  }
  for (let i = 0; i < nodes.length; i++) {
    const problem = nodeProblem(nodes[i], `${path}[${i}]`, allowed, depth, limits);
    if (problem) return problem;
  }
  return null;
}

function nodeProblem(
  node: unknown,
  path: string,
  allowed: NodeKind[],
  depth: number,
  limits: DocumentLimits,
): string | null {
  if (!isObject(node)) return `${path} must be an object`;
  const kind = node.object;
  if (!allowed.includes(kind as NodeKind)) {
    return `${path}.object must be ${allowed.map((k) => `"${k}"`).join(' or ')}`;
  }
  if (node.key !== undefined && typeof node.key !== 'string') return `${path}.key must be a string`;
  if (kind === 'text') return leavesProblem(node.leaves, `${path}.leaves`);

  if (typeof node.type !== 'string') return `${path}.type must be a string`;
  if (node.type === '') return `${path}.type must not be empty`;
  if (node.data !== undefined && !isObject(node.data)) return `${path}.data must be an object`;
  if (node.isVoid !== undefined && typeof node.isVoid !== 'boolean') {
    return `${path}.isVoid must be a boolean`;
  }
  // Void nodes (dividers, images, emojis...) hold no children.
  if (node.isVoid === true && node.nodes === undefined) return null;
  return nodesProblem(
    node.nodes,
    `${path}.nodes`,
    CHILDREN[kind as 'block' | 'inline'],
    depth + 1,
    limits,
  );
}

function leavesProblem(leaves: unknown, path: string): string | null {
  if (!Array.isArray(leaves)) return `${path} must be an array`;
  for (let i = 0; i < leaves.length; i++) {
    const leaf: unknown = leaves[i];
    const at = `${path}[${i}]`;
    if (!isObject(leaf)) return `${at} must be an object`;
    if (leaf.object !== 'leaf') return `${at}.object must be "leaf"`;
    if (typeof leaf.text !== 'string') return `${at}.text must be a string`;
    if (!Array.isArray(leaf.marks)) return `${at}.marks must be an array`;
    for (let j = 0; j < leaf.marks.length; j++) {
      const mark: unknown = leaf.marks[j];
      const markAt = `${at}.marks[${j}]`;
      if (!isObject(mark)) return `${markAt} must be an object`;
      if (mark.object !== 'mark') return `${markAt}.object must be "mark"`;
      if (typeof mark.type !== 'string' || mark.type === '') {
        return `${markAt}.type must be a non-empty string`;
      }
      if (mark.data !== undefined && !isObject(mark.data))
        return `${markAt}.data must be an object`;
    }
  }
  return null;
}

function sizeProblem(value: unknown, path: string, maxBytes: number): string | null {
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  } catch {
    // Only a structure too deep for the JSON serializer gets here.
    return `${path} is nested too deeply`;
  }
  return bytes > maxBytes
    ? `${path} must be at most ${maxBytes} bytes of JSON (it has ${bytes})`
    : null;
}

/** class-validator: the property is a rich document within `limits` (see documentProblem). */
export function IsDocument(
  limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDocument',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: ({ value, property }) =>
          documentProblem(value, property, limits) ?? `${property} is invalid`,
        ...options,
      },
      validator: {
        validate: (value: unknown, args) =>
          documentProblem(value, args?.property ?? 'document', limits) === null,
      },
    });
}

/** What a route accepts as GitBook's `Document` input: `{markdown}` or `{document}`. */
export interface DocumentInputRules {
  /** Longest markdown, in characters. */
  maxMarkdownChars: number;
  /** Largest document and deepest nesting (DEFAULT_DOCUMENT_LIMITS unless given). */
  limits?: DocumentLimits;
  /**
   * Why an empty input is refused ("a comment cannot be empty"): `{}`, blank markdown and a
   * document without nodes. Unset: `{}` is accepted (nothing, or an empty page).
   */
  refuseEmpty?: string;
}

/**
 * The first problem of `value` as a Document input under `rules`, named by its JSON path
 * under `path`; null when there is none. The one validator of document inputs: page content,
 * review comments and comment bodies differ only by their rules.
 */
export function documentInputProblem(
  value: unknown,
  path: string,
  rules: DocumentInputRules,
): string | null {
  if (!isObject(value)) return `${path} must be an object: {markdown} or {document}`;
  const keys = Object.keys(value);
  const unknown = keys.find((key) => key !== 'markdown' && key !== 'document');
  if (unknown !== undefined) return `${path}.${unknown} is not a property of a document`;
  if (keys.length === 0) {
    return rules.refuseEmpty
      ? `${path} must have markdown or document: ${rules.refuseEmpty}`
      : null;
  }
  if (keys.length > 1) return `${path} must have either markdown or document, not both`;
  if ('markdown' in value) {
    const { markdown } = value;
    if (typeof markdown !== 'string') return `${path}.markdown must be a string`;
    if (rules.refuseEmpty && markdown.trim() === '') return `${path}.markdown must not be empty`;
    if (charCount(markdown) > rules.maxMarkdownChars) {
      return `${path}.markdown must be at most ${rules.maxMarkdownChars} characters`;
    }
    return null;
  }
  const document = value.document;
  const problem = documentProblem(document, `${path}.document`, rules.limits);
  if (problem) return problem;
  if (rules.refuseEmpty && (document as JSONDocument).nodes.length === 0) {
    return `${path}.document must have at least one node: ${rules.refuseEmpty}`;
  }
  return null;
}

/** class-validator: the property is a Document input under `rules` (see documentInputProblem). */
export function IsDocumentInput(rules: DocumentInputRules): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isDocumentInput',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: ({ value, property }) =>
          documentInputProblem(value, property, rules) ?? `${property} is invalid`,
      },
      validator: {
        validate: (value: unknown, args) =>
          documentInputProblem(value, args?.property ?? 'document', rules) === null,
      },
    });
}

import { CORE_SCHEMA, load } from 'js-yaml';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';

/**
 * The README's coverage of GitBook's API: each operation of the GitBook version Bindery follows,
 * with Bindery's status. An operation is implemented when its operationId is in the committed
 * API document; the others are listed, with their status and why, in
 * openapi/gitbook-coverage.yaml. `npm run coverage:generate` writes the table between the
 * README's markers; src/api-coverage.spec.ts fails when the list, the API document and the
 * README disagree. Reads files only (no build of the application), so swc compiles it alone.
 */

/** The repository, both from `src/` (tests) and from `dist/src/` (`npm run coverage:generate`). */
const ROOT = __filename.endsWith('.ts') ? join(__dirname, '..') : join(__dirname, '..', '..');
export const README_FILE = join(ROOT, 'README.md');
export const COVERAGE_FILE = join(ROOT, 'openapi', 'gitbook-coverage.yaml');
export const API_DOCUMENT_FILE = join(ROOT, 'openapi', 'bindery.openapi.json');
const GITBOOK_PACKAGE = '@gitbook/api-0.202';

export const START_MARKER = '<!-- coverage:start -->';
export const END_MARKER = '<!-- coverage:end -->';
const GENERATE_COMMAND = 'npm run coverage:generate';

export const STATUSES = ['not yet', 'not applicable'] as const;
export type ListedStatus = (typeof STATUSES)[number];
export type Status = 'implemented' | ListedStatus;

/** An entry of openapi/gitbook-coverage.yaml. */
export interface ListedOperation {
  status: ListedStatus;
  reason: string;
}

interface OpenApiOperation {
  operationId?: string;
  tags?: string[];
  'x-bindery-only'?: boolean;
}
interface OpenApiDocument {
  tags?: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** What the coverage is computed from. */
export interface CoverageInputs {
  /** GitBook's document, and the version of `@gitbook/api` it comes from. */
  gitbook: OpenApiDocument;
  gitbookVersion: string;
  /** Bindery's committed API document. */
  bindery: OpenApiDocument;
  /** openapi/gitbook-coverage.yaml as parsed: operationId → entry (unchecked). */
  listed: Record<string, unknown>;
}

export function readCoverageInputs(): CoverageInputs {
  const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const spec = require.resolve(`${GITBOOK_PACKAGE}/spec/openapi.json`);
  // The package's exports leave out package.json: it sits beside spec/.
  const { version } = json(join(dirname(spec), '..', 'package.json')) as { version: string };
  const listed = load(readFileSync(COVERAGE_FILE, 'utf8'), { schema: CORE_SCHEMA });
  return {
    gitbook: json(spec) as OpenApiDocument,
    gitbookVersion: version,
    bindery: json(API_DOCUMENT_FILE) as OpenApiDocument,
    listed: (listed ?? {}) as Record<string, unknown>,
  };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace'];

/** An operation of a document, where it is. */
interface Located {
  operationId: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
}

/** An operation of GitBook's spec with its group. */
interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
}

/** The operations of a document, in its order. */
function operationsOf(document: OpenApiDocument): Located[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method, operation]) => METHODS.includes(method) && operation.operationId)
      .map(([method, operation]) => ({
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        path,
        operation,
      })),
  );
}

/** GitBook tags one operation `space-comment`, a slip for the `space-comments` of its siblings. */
export const TAG_ALIASES: Readonly<Record<string, string>> = { 'space-comment': 'space-comments' };
/** GitBook leaves one operation untagged, a slip too: its siblings' group. */
export const UNTAGGED: Readonly<Record<string, string>> = {
  installIntegrationOnSpace: 'integrations',
};
/** Tags GitBook uses without declaring them, each shown after the declared tag named. */
const UNDECLARED_AFTER: Record<string, string> = {
  'change-requests-reviews': 'change-request-reviewers',
  'change-request-conversations': 'change-request-comments',
  'site-users': 'site-permissions',
  git: 'space-git',
};

/** GitBook's operations with their group (the first tag other than `critical`), in its order. */
export function gitbookOperations(gitbook: OpenApiDocument): SpecOperation[] {
  return operationsOf(gitbook).map(({ operationId, method, path, operation }) => {
    const tag = operation.tags?.find((name) => name !== 'critical') ?? UNTAGGED[operationId];
    if (!tag) throw new Error(`GitBook's ${operationId} has no tag: give it one in UNTAGGED`);
    return { operationId, method, path, tag: TAG_ALIASES[tag] ?? tag };
  });
}

/** The groups of the operations, in the order of GitBook's declared tags. */
function tagOrder(gitbook: OpenApiDocument, operations: SpecOperation[]): string[] {
  const order: string[] = [];
  for (const { name } of gitbook.tags ?? []) {
    order.push(name);
    order.push(...Object.keys(UNDECLARED_AFTER).filter((tag) => UNDECLARED_AFTER[tag] === name));
  }
  const used = new Set(operations.map((operation) => operation.tag));
  const unplaced = [...used].filter((tag) => !order.includes(tag));
  if (unplaced.length > 0) {
    throw new Error(
      `GitBook's tags ${unplaced.join(', ')} are not declared: place them in UNDECLARED_AFTER`,
    );
  }
  return order.filter((tag) => used.has(tag));
}

/** The operationIds of Bindery's GitBook operations (not those marked Bindery only). */
function binderyOperationIds(bindery: OpenApiDocument): Set<string> {
  return new Set(
    operationsOf(bindery)
      .filter(({ operation }) => operation['x-bindery-only'] !== true)
      .map(({ operationId }) => operationId),
  );
}

function isListedOperation(entry: unknown): entry is ListedOperation {
  if (entry === null || typeof entry !== 'object') return false;
  const { status, reason, ...rest } = entry as Record<string, unknown>;
  return (
    STATUSES.includes(status as ListedStatus) &&
    typeof reason === 'string' &&
    reason.trim() !== '' &&
    !reason.includes('\n') &&
    Object.keys(rest).length === 0
  );
}

/**
 * Every disagreement between GitBook's operations, Bindery's API document and the list; empty
 * when each operation of the spec is either implemented or listed, and only those are listed.
 */
export function coverageProblems(inputs: CoverageInputs): string[] {
  const file = 'openapi/gitbook-coverage.yaml';
  const problems: string[] = [];
  const operations = gitbookOperations(inputs.gitbook);
  const ids = new Set<string>();
  for (const { operationId } of operations) {
    if (ids.has(operationId)) problems.push(`GitBook's spec has ${operationId} twice`);
    ids.add(operationId);
  }
  const implemented = binderyOperationIds(inputs.bindery);
  for (const { operationId, method, path } of operations) {
    if (!implemented.has(operationId) && !(operationId in inputs.listed)) {
      problems.push(
        `${operationId} (${method} ${path}) is neither in openapi/bindery.openapi.json nor in ` +
          `${file}: list it with its status (${STATUSES.join(', ')}) and why`,
      );
    }
  }
  for (const [operationId, entry] of Object.entries(inputs.listed)) {
    if (!ids.has(operationId)) {
      problems.push(
        `${file} lists ${operationId}, which is not an operation of GitBook's API ` +
          `${inputs.gitbookVersion}: remove it`,
      );
    } else if (implemented.has(operationId)) {
      problems.push(
        `${file} lists ${operationId}, which Bindery implements (it is in ` +
          `openapi/bindery.openapi.json): remove it, then run \`${GENERATE_COMMAND}\``,
      );
    }
    if (!isListedOperation(entry)) {
      problems.push(
        `${file}: ${operationId} must be {status, reason}, its status one of ` +
          `${STATUSES.join(', ')} and its reason one line`,
      );
    }
  }
  return problems;
}

interface CoverageRow extends SpecOperation {
  status: Status;
  reason: string;
}

/** Markdown table cell text: a pipe would end the cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

function table(header: string[], rows: string[][], numeric: boolean[] = []): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(header),
    line(header.map((_, index) => (numeric[index] ? '--:' : '---'))),
    ...rows.map(line),
  ].join('\n');
}

/**
 * The README's section between the markers (without them), formatted as Prettier formats the
 * README. Throws when the inputs disagree (see `coverageProblems`).
 */
export async function renderCoverage(inputs: CoverageInputs): Promise<string> {
  const problems = coverageProblems(inputs);
  if (problems.length > 0) {
    throw new Error(`The coverage of GitBook's API disagrees:\n  ${problems.join('\n  ')}`);
  }
  const implemented = binderyOperationIds(inputs.bindery);
  const operations = gitbookOperations(inputs.gitbook);
  const rows: CoverageRow[] = operations.map((operation) =>
    implemented.has(operation.operationId)
      ? { ...operation, status: 'implemented', reason: '' }
      : { ...operation, ...(inputs.listed[operation.operationId] as ListedOperation) },
  );
  const statuses: Status[] = ['implemented', ...STATUSES];
  const count = (of: CoverageRow[], status: Status) =>
    of.filter((row) => row.status === status).length;
  const version = inputs.gitbookVersion;

  const parts: string[] = [
    `<!-- Written by \`${GENERATE_COMMAND}\` from openapi/bindery.openapi.json and ` +
      `openapi/gitbook-coverage.yaml: edit those, not this. -->`,
    `Of the **${rows.length}** operations of GitBook's API ${version}, Bindery implements ` +
      `**${count(rows, 'implemented')}**; **${count(rows, 'not yet')}** are not yet implemented ` +
      `and **${count(rows, 'not applicable')}** are not applicable.`,
  ];

  const tags = tagOrder(inputs.gitbook, operations);
  const byTag = new Map(tags.map((tag) => [tag, rows.filter((row) => row.tag === tag)]));
  parts.push(
    table(
      ['Group', ...statuses.map((status) => status[0].toUpperCase() + status.slice(1)), 'Total'],
      [
        ...tags.map((tag) => {
          const of = byTag.get(tag) as CoverageRow[];
          return [
            `\`${tag}\``,
            ...statuses.map((status) => String(count(of, status))),
            String(of.length),
          ];
        }),
        [
          '**All**',
          ...statuses.map((status) => `**${count(rows, status)}**`),
          `**${rows.length}**`,
        ],
      ],
      [false, true, true, true, true],
    ),
  );

  for (const tag of tags) {
    const of = byTag.get(tag) as CoverageRow[];
    const others = STATUSES.filter((status) => count(of, status) > 0).map(
      (status) => `, ${count(of, status)} ${status}`,
    );
    parts.push(
      `<details>\n<summary><code>${tag}</code>: ${count(of, 'implemented')} of ${of.length} ` +
        `implemented${others.join('')}</summary>`,
      table(
        ['Operation', 'Method and path', 'Status', 'Reason'],
        of.map((row) => [
          `\`${row.operationId}\``,
          `\`${row.method} ${row.path}\``,
          row.status,
          cell(row.reason),
        ]),
      ),
      '</details>',
    );
  }

  // Operations of earlier versions of GitBook's API (kept for its clients) that this one dropped.
  const current = new Set(operations.map((operation) => operation.operationId));
  const earlier = operationsOf(inputs.bindery).filter(
    ({ operationId, operation }) =>
      operation['x-bindery-only'] !== true && !current.has(operationId),
  );
  if (earlier.length > 0) {
    parts.push(
      `<details>\n<summary>Implemented, from earlier versions of GitBook's API: ` +
        `${earlier.length} operations that ${version} no longer has</summary>`,
      table(
        ['Operation', 'Method and path', 'Group'],
        earlier.map(({ operationId, method, path, operation }) => [
          `\`${operationId}\``,
          `\`${method} ${path.replace(/^\/v1(?=\/)/, '')}\``,
          `\`${operation.tags?.[0] ?? ''}\``,
        ]),
      ),
      '</details>',
    );
  }

  const options = (await resolveConfig(README_FILE)) ?? {};
  return format(parts.join('\n\n'), { ...options, parser: 'markdown' });
}

/** The text between the README's markers, without them; throws when they are missing. */
export function readmeSection(readme: string): string {
  const start = readme.indexOf(START_MARKER);
  const end = readme.indexOf(END_MARKER);
  if (start < 0 || end < start) {
    throw new Error(`README.md has no ${START_MARKER} … ${END_MARKER} section`);
  }
  return readme
    .slice(start + START_MARKER.length, end)
    .replace(/^\n+/, '')
    .replace(/\n+$/, '\n');
}

/** The README with `section` between its markers. */
export function withSection(readme: string, section: string): string {
  readmeSection(readme);
  const start = readme.indexOf(START_MARKER) + START_MARKER.length;
  const end = readme.indexOf(END_MARKER);
  return `${readme.slice(0, start)}\n\n${section}\n${readme.slice(end)}`;
}

/** `npm run coverage:generate`: writes the table into the README. */
async function main(): Promise<void> {
  const section = await renderCoverage(readCoverageInputs());
  const readme = readFileSync(README_FILE, 'utf8');
  const updated = withSection(readme, section);
  if (updated === readme) {
    process.stdout.write("README.md: the coverage of GitBook's API is up to date\n");
    return;
  }
  writeFileSync(README_FILE, updated);
  process.stdout.write("README.md: wrote the coverage of GitBook's API\n");
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

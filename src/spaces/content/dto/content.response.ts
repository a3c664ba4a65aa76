import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { REVISION_TYPES } from '../../../content-engine/entities/revision.entity';
import { PAGE_TYPES } from '../../../content-engine/tree/format';
import {
  PRESENTED_CHANGE_REQUEST_SCHEMA,
  type PresentedChangeRequest,
} from '../merged-change-requests';

export class GitSyncBlobResponse {
  @ApiProperty({ description: 'SHA of the blob.' }) oid!: string;
  @ApiProperty({ description: 'Path of the blob in the Git tree.' }) path!: string;
}

/** GitBook's `RevisionPageLayoutOptions`: every field is always present. */
export class PageLayoutResponse {
  @ApiProperty({ enum: ['default', 'wide'] }) width!: 'default' | 'wide';
  @ApiProperty({ description: 'Should the cover be visible?' }) cover!: boolean;
  @ApiProperty({ enum: ['hero', 'full'] }) coverSize!: 'hero' | 'full';
  @ApiProperty({ description: 'Should the title be visible?' }) title!: boolean;
  @ApiProperty({ description: 'Should the description be visible?' }) description!: boolean;
  @ApiProperty({ description: 'Should the table of contents be visible?' })
  tableOfContents!: boolean;
  @ApiProperty({ description: 'Should the outline be visible?' }) outline!: boolean;
  @ApiProperty({ description: 'Should the pagination be visible?' }) pagination!: boolean;
  @ApiProperty({ description: 'Should the page metadata be visible?' }) metadata!: boolean;
  @ApiProperty({ enum: ['none', 'radial'], description: 'Mask applied to the cover image.' })
  coverMask!: 'none' | 'radial';
  @ApiProperty({ description: 'Should the tags be visible?' }) tags!: boolean;
  @ApiProperty({ description: 'Should the page actions be visible?' }) actions!: boolean;
  @ApiProperty({ description: 'Should the anchor links on headings be visible?' })
  anchors!: boolean;
}

export class PageCoverResponse {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'File or URL ref.',
  })
  ref?: object;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Dark mode.' })
  refDark?: object;
  @ApiProperty({ default: 0 }) yPos!: number;
  @ApiPropertyOptional({ minimum: 10, maximum: 700, default: 240 }) height?: number;
}

export class PageUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'Location of the page in the app.' }) app!: string;
}

/**
 * GitBook's `RevisionPage`, one class for its four variants (by `type`): `document` (with
 * `kind: sheet`, `urls`, `slug`, `path`, `layout`, `pages`, and `documentId` unless empty),
 * `group` (`slug`, `path`, `pages`), `link` (`target`, `href`) and `computed` (`computed`).
 * Read one by one, a document page also carries its body: `document` or `markdown`.
 */
export class RevisionPageResponse {
  @ApiProperty({ enum: PAGE_TYPES }) type!: string;
  @ApiPropertyOptional({
    enum: ['sheet', 'group', 'link'],
    deprecated: true,
    description: 'Absent on computed pages.',
  })
  kind?: string;
  @ApiProperty() id!: string;
  @ApiProperty({ minLength: 1 }) title!: string;
  @ApiPropertyOptional() emoji?: string;
  @ApiPropertyOptional() icon?: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ type: PageUrlsResponse }) urls?: PageUrlsResponse;
  @ApiPropertyOptional({ description: 'Slug in its parent (document and group pages).' })
  slug?: string;
  @ApiPropertyOptional({ description: 'Complete path in the revision.' }) path?: string;
  @ApiPropertyOptional({ type: () => [RevisionPageResponse] }) pages?: RevisionPageResponse[];
  @ApiPropertyOptional({ type: PageLayoutResponse }) layout?: PageLayoutResponse;
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object' },
    description: "The page's tags (document pages): Bindery has none.",
  })
  tags?: object[];
  @ApiPropertyOptional({ type: PageCoverResponse }) cover?: PageCoverResponse;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) variables?: object;
  @ApiPropertyOptional({ type: GitSyncBlobResponse }) git?: GitSyncBlobResponse;
  @ApiPropertyOptional({ default: false }) hidden?: boolean;
  @ApiPropertyOptional({ default: false }) noIndex?: boolean;
  @ApiPropertyOptional({ default: false }) noRobotsIndex?: boolean;
  @ApiPropertyOptional({ description: 'Document of the page body; absent for an empty page.' })
  documentId?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Link target.' })
  target?: object;
  @ApiPropertyOptional() href?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) computed?: object;
  @ApiPropertyOptional() computedSeed?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The body as a JSON document (`format=document`, the default).',
  })
  document?: object;
  @ApiPropertyOptional({ description: 'The body as markdown (`format=markdown`).' })
  markdown?: string;
}

export class RevisionPagesResponse {
  @ApiProperty({ type: [RevisionPageResponse] }) pages!: RevisionPageResponse[];
}

export class FileDimensionsResponse {
  @ApiProperty() width!: number;
  @ApiProperty() height!: number;
}

/** GitBook's `RevisionFile`. */
export class RevisionFileResponse {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() contentType!: string;
  @ApiProperty() downloadURL!: string;
  @ApiProperty() size!: number;
  @ApiPropertyOptional({ type: FileDimensionsResponse }) dimensions?: FileDimensionsResponse;
  @ApiPropertyOptional({ type: GitSyncBlobResponse }) git?: GitSyncBlobResponse;
}

export class RevisionGitResponse {
  @ApiProperty() oid!: string;
  @ApiProperty() message!: string;
  @ApiProperty({ description: 'True when the commit was made by an export from Bindery.' })
  createdByDocs!: boolean;
  @ApiPropertyOptional() url?: string;
  @ApiPropertyOptional() ref?: string;
}

export class RevisionUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the revision in the application.' })
  app!: string;
}

/** GitBook's `RevisionReusableContent`. */
export class RevisionReusableContentResponse {
  @ApiProperty() id!: string;
  @ApiProperty() title!: string;
  @ApiPropertyOptional({ description: 'Document of its content; absent when it is empty.' })
  document?: string;
  @ApiPropertyOptional({ type: GitSyncBlobResponse }) git?: GitSyncBlobResponse;
}

/** GitBook's `JSONDocument`. */
export class JSONDocumentResponse {
  @ApiProperty({ enum: ['document'] }) object!: 'document';
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: '`schemaVersion`, when the document states one.',
  })
  data!: object;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Its blocks.',
  })
  nodes!: object[];
}

/** GitBook's `Revision`. */
export class RevisionResponse {
  @ApiProperty({ enum: ['revision'] }) object!: 'revision';
  @ApiProperty() id!: string;
  @ApiProperty({ type: [String] }) parents!: string[];
  @ApiProperty({ enum: REVISION_TYPES }) type!: string;
  @ApiProperty({ type: [RevisionPageResponse] }) pages!: RevisionPageResponse[];
  @ApiProperty({ type: [RevisionFileResponse] }) files!: RevisionFileResponse[];
  @ApiProperty({ type: [RevisionReusableContentResponse] })
  reusableContents!: RevisionReusableContentResponse[];
  @ApiProperty({
    type: 'array',
    items: { type: 'object' },
    description: "The revision's page tags: Bindery has none.",
  })
  tags!: object[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) variables?: object;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: RevisionUrlsResponse }) urls!: RevisionUrlsResponse;
  @ApiPropertyOptional({ type: RevisionGitResponse, description: 'Omitted with metadata=false.' })
  git?: RevisionGitResponse;
  @ApiPropertyOptional({
    allOf: [{ $ref: PRESENTED_CHANGE_REQUEST_SCHEMA }],
    description: 'The change request this revision merged (`type: merge` only).',
  })
  mergedFrom?: PresentedChangeRequest;
}

/** GitBook's `ContentRefPage`: a page, of another space when `space` is given. */
export class ContentRefPageResponse {
  @ApiProperty({ enum: ['page'] }) kind!: 'page';
  @ApiProperty() page!: string;
  @ApiPropertyOptional({ description: 'The space of the page.' }) space?: string;
}

/** GitBook's `RevisionPageMetaLinks`. */
export class RevisionPageMetaLinksResponse {
  @ApiPropertyOptional({
    type: ContentRefPageResponse,
    description: 'Never set: Bindery keeps no canonical links.',
  })
  canonical?: ContentRefPageResponse;
  @ApiPropertyOptional({
    type: [ContentRefPageResponse],
    description:
      'The page in each space that holds it in another language (translations), the page ' +
      'itself first; absent when there is none.',
  })
  alternates?: ContentRefPageResponse[];
}

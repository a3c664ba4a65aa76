import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { DEFAULT_LEVELS } from '../../collections/dto/collection.dto';
import { ROLES } from '../../platform/policy/roles';
import { CONTENT_VISIBILITIES, SPACE_EDIT_MODES } from '../entities/space.entity';
import { TRANSLATION_LANGUAGES } from '../languages';

export class SpacePermissionsResponse {
  @ApiProperty({ description: 'Can the user view the space content.' }) view!: boolean;
  @ApiProperty({ description: 'Can the user access the space in the application.' })
  access!: boolean;
  @ApiProperty({
    description: 'Can the user edit the title, install integrations, and manage the space.',
  })
  admin!: boolean;
  @ApiProperty({ description: 'Can the user view the invite links of the space.' })
  viewInviteLinks!: boolean;
  @ApiProperty({ description: 'Can the user edit the content of the space.' }) edit!: boolean;
  @ApiProperty({ description: 'Can the user trigger a git sync.' }) triggerGitSync!: boolean;
  @ApiProperty({ description: 'Can the user comment on the content.' }) comment!: boolean;
  @ApiProperty({ description: 'Can the user merge change requests.' }) merge!: boolean;
  @ApiProperty({ description: 'Can the user review change requests.' }) review!: boolean;
  @ApiProperty({ description: 'Can the user install integrations in the space.' })
  installIntegration!: boolean;
}

export class SpaceUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the space in the API.' }) location!: string;
  @ApiProperty({ format: 'uri', description: 'URL of the space in the application.' })
  app!: string;
  @ApiPropertyOptional({ format: 'uri', description: 'URL of its published content.' })
  published?: string;
  @ApiPropertyOptional({ format: 'uri', description: 'URL of its public content.' })
  public?: string;
  @ApiPropertyOptional({ format: 'uri', description: 'URL of its icon, when it has one.' })
  icon?: string;
}

/**
 * GitBook's `GitSyncState` as a space carries it (`Space.gitSync`). Named apart from the Git
 * module's `GitSyncStateResponse` (getSpaceGitInfo), which adds Bindery's `lastOperation`.
 */
export class SpaceGitSyncResponse {
  @ApiPropertyOptional({ description: 'Repository name.' }) repoName?: string;
  @ApiPropertyOptional({ enum: ['github', 'gitlab', 'github-legacy'] })
  installationProvider?: string;
  @ApiPropertyOptional({ description: 'The integration name providing the Git Sync.' })
  integration?: string;
  @ApiPropertyOptional({
    description: 'The URL to the repository tree, used when rendering public content.',
  })
  url?: string;
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the Git provider details were last updated.',
  })
  updatedAt?: string;
}

/** GitBook's `Space`. */
export class SpaceResponse {
  @ApiProperty({ enum: ['space'] }) object!: 'space';
  @ApiProperty() id!: string;
  @ApiProperty({ maxLength: 50 }) title!: string;
  @ApiProperty({ maxLength: 50, description: 'Emoji of the space; empty when it has none.' })
  emoji!: string;
  @ApiProperty({ enum: CONTENT_VISIBILITIES }) visibility!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Set while the space is in the trash.' })
  deletedAt?: string;
  @ApiPropertyOptional({ enum: SPACE_EDIT_MODES }) editMode?: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) mergeRules!: object;
  @ApiProperty({ type: SpaceUrlsResponse }) urls!: SpaceUrlsResponse;
  @ApiProperty({ description: 'ID of the organization owning this space.' })
  organization!: string;
  @ApiPropertyOptional({ description: 'ID of the parent collection.' }) parent?: string;
  @ApiPropertyOptional({ enum: TRANSLATION_LANGUAGES }) language?: string;
  @ApiPropertyOptional({ type: SpaceGitSyncResponse }) gitSync?: SpaceGitSyncResponse;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) visitorAuth?: object;
  @ApiProperty({ description: 'ID of the active revision in the space.' }) revision!: string;
  @ApiProperty({ enum: DEFAULT_LEVELS, nullable: true }) defaultLevel!: string | null;
  @ApiProperty({ description: 'Count of open comments.' }) comments!: number;
  @ApiProperty({ description: 'Total count of change requests.' }) changeRequests!: number;
  @ApiProperty({ description: 'Count of open change requests.' }) changeRequestsOpen!: number;
  @ApiProperty({ description: 'Count of draft change requests.' }) changeRequestsDraft!: number;
  @ApiProperty({ type: SpacePermissionsResponse }) permissions!: SpacePermissionsResponse;
}

/** GitBook's `MemberContentPermission`: a member's role on a space. */
export class MemberSpacePermissionResponse {
  @ApiProperty({ enum: ROLES }) permission!: string;
  @ApiProperty({ type: SpaceResponse }) space!: SpaceResponse;
}

/** The fields GitBook requires of a `Space`: what a reference to one embeds. */
export const SPACE_SUMMARY_FIELDS = [
  'object',
  'id',
  'title',
  'emoji',
  'organization',
  'visibility',
  'revision',
  'createdAt',
  'updatedAt',
  'comments',
  'changeRequests',
  'changeRequestsOpen',
  'changeRequestsDraft',
  'mergeRules',
  'urls',
  'defaultLevel',
  'permissions',
] as const;

/**
 * A space as a link location embeds it (once per location): GitBook's `Space` with its
 * required fields only, `urls` with `location` and `app` only.
 */
export class SpaceSummaryResponse extends PickType(SpaceResponse, SPACE_SUMMARY_FIELDS) {}

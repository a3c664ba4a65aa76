import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GIT_OPERATION_KINDS, GIT_OPERATION_STATUSES } from '../entities/git-sync.entity';

/** How far an operation got: files done of the files it handles. */
export class GitOperationProgressResponse {
  @ApiProperty({ description: 'Files done.' }) done!: number;
  @ApiProperty({ description: 'Files to do: pages and files read or written.' }) total!: number;
}

/** Bindery's addition to GitSyncState: the latest import or export and its outcome. */
export class GitOperationResponse {
  @ApiProperty({ enum: GIT_OPERATION_KINDS }) kind!: string;
  @ApiProperty({ enum: GIT_OPERATION_STATUSES }) status!: string;
  @ApiProperty({ description: 'The ref of the repository.' }) ref!: string;
  @ApiPropertyOptional({ description: 'Why it failed (status `failed`).' }) error?: string;
  @ApiPropertyOptional({ description: 'The commit imported or exported.' }) commit?: string;
  @ApiPropertyOptional({
    type: [String],
    description:
      'What a successful operation left out or changed, e.g. files over the 1 MB file limit, or markdown files SUMMARY.md does not list, imported as hidden pages.',
  })
  warnings?: string[];
  @ApiPropertyOptional({
    description:
      'An import that conflicts with changes made in the space since the last sync: the id of the change request that holds it, to resolve and merge.',
  })
  changeRequest?: string;
  @ApiPropertyOptional({
    type: GitOperationProgressResponse,
    description: 'Progress, while the operation runs and once done.',
  })
  progress?: GitOperationProgressResponse;
  @ApiProperty({ format: 'date-time' }) requestedAt!: string;
  @ApiPropertyOptional({ format: 'date-time' }) completedAt?: string;
}

/**
 * GitBook's `GitSyncState` as getSpaceGitInfo answers it, with Bindery's `lastOperation` (a
 * space's `gitSync` is the plain `SpaceGitSyncResponse`).
 */
export class GitSyncStateResponse {
  @ApiPropertyOptional({ description: 'Repository name (`owner/repository`).' }) repoName?: string;
  @ApiPropertyOptional({ enum: ['github', 'gitlab', 'github-legacy'] })
  installationProvider?: string;
  @ApiPropertyOptional({ description: 'The integration name providing the Git Sync.' })
  integration?: string;
  @ApiPropertyOptional({ description: 'URL of the repository (never with credentials).' })
  url?: string;
  @ApiPropertyOptional({ format: 'date-time' }) updatedAt?: string;
  @ApiPropertyOptional({
    type: GitOperationResponse,
    description: 'Bindery: the latest operation.',
  })
  lastOperation?: GitOperationResponse;
}

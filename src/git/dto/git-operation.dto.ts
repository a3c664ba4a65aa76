import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { GIT_PROVIDERS } from '../entities/git-sync.entity';
import { PresentNotNull } from '../../platform/validation/present-not-null';

/** GitBook's `UpdateSpaceGitInfo`: what to show about the provider in `git/info`. */
export class GitInfoDto {
  @ApiProperty({ enum: GIT_PROVIDERS })
  @IsIn(GIT_PROVIDERS)
  provider!: (typeof GIT_PROVIDERS)[number];

  @ApiPropertyOptional({ description: 'URL of the repository, shown as `url` in git/info.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string;
}

/** Fields common to ImportGitRepository and ExportToGitRepository. */
export class GitOperationDto {
  @ApiProperty({
    description:
      'http(s) URL of the repository; may carry credentials (`https://user:token@host/repo.git`), ' +
      'which are used for this operation only and never stored or shown in clear.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url!: string;

  @ApiProperty({
    description: 'The Git ref, e.g. `refs/heads/main` (a bare branch name works too).',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  ref!: string;

  @ApiPropertyOptional({ description: 'Accepted and unused: every operation fetches afresh.' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  repoCacheID?: string;

  @ApiPropertyOptional({ description: 'URL of the repository tree, shown in git/info.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  repoTreeURL?: string;

  @ApiPropertyOptional({ description: "Prefix of a commit's URL (the revision's `git.url`)." })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  repoCommitURL?: string;

  @ApiPropertyOptional({ description: 'Folder of the content in the repository.' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  repoProjectDirectory?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Orders operations: one older than the last applied is ignored.',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'timestamp must be an ISO 8601 date-time' })
  timestamp?: string;

  @ApiPropertyOptional({
    description:
      'Export: push even when it is not a fast-forward. Import: apply even when `timestamp` is older than the last applied operation.',
  })
  @IsOptional()
  @IsBoolean()
  force?: boolean;

  @ApiPropertyOptional({ type: GitInfoDto })
  @PresentNotNull()
  @ValidateNested()
  @Type(() => GitInfoDto)
  gitInfo?: GitInfoDto;
}

/** GitBook's `ImportGitRepository`. */
export class ImportGitRepositoryDto extends GitOperationDto {
  @ApiPropertyOptional({
    description: 'true: make a revision of the repository without moving the primary content.',
  })
  @IsOptional()
  @IsBoolean()
  standalone?: boolean;
}

/** GitBook's `ExportToGitRepository`. */
export class ExportToGitRepositoryDto extends GitOperationDto {
  @ApiProperty({ description: 'Message of the commit made by the export.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(65536)
  commitMessage!: string;
}

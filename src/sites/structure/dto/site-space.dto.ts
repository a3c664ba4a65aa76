import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import {
  IsCondition,
  MAX_CONDITION_LENGTH,
} from '../../../platform/conditions/condition.validator';

const booleanQuery = ({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value;

export class ListSiteSpacesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Share key of a `share-link` site; accepted and not needed by members.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  shareKey?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      'true: only the default site spaces (of the root, or of each section); false: only the ' +
      'others; absent: all.',
  })
  @IsOptional()
  @Transform(booleanQuery)
  @IsBoolean()
  default?: boolean;
}

export class AddSiteSpaceDto {
  @ApiProperty({ description: 'ID of a space of the organization.' })
  @IsString()
  @Chars(1, 32)
  spaceId!: string;

  @ApiPropertyOptional({
    description:
      'ID of the section to add the space to. If not provided, the space is added to the ' +
      'default section, or at the root when the site has no sections.',
  })
  @IsOptional()
  @IsString()
  @Chars(1, 32)
  sectionId?: string;
}

export class UpdateSiteSpaceDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: 'Path of the site space in the site, unique among its siblings.',
  })
  @PresentNotNull()
  @IsString()
  @Chars(1, 100)
  path?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_CONDITION_LENGTH,
    nullable: true,
    description:
      'Expression over the visitor claims deciding whether a visitor sees it; null removes it, ' +
      'absent leaves it unchanged.',
  })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsCondition()
  condition?: string | null;

  @ApiPropertyOptional({ description: 'The space it publishes; absent leaves it unchanged.' })
  @PresentNotNull()
  @IsString()
  @Chars(1, 32)
  spaceId?: string;
}

/** GitBook's `SiteSpacePointer`. */
export class SiteSpacePointerDto {
  @ApiProperty({ enum: ['site-space'] })
  @IsIn(['site-space'])
  type!: 'site-space';

  @ApiProperty({ description: 'ID of a site space of the same section (or root).' })
  @IsString()
  @Chars(1, 32)
  siteSpace!: string;
}

/** GitBook's `SiteSpaceMovePosition`. */
export class SiteSpaceMovePositionDto {
  @ApiPropertyOptional({ type: SiteSpacePointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSpacePointerDto)
  before?: SiteSpacePointerDto;

  @ApiPropertyOptional({ type: SiteSpacePointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSpacePointerDto)
  after?: SiteSpacePointerDto;
}

export class MoveSiteSpaceDto {
  @ApiPropertyOptional({
    type: SiteSpaceMovePositionDto,
    description: 'Where to move it among its siblings; the end when not provided.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSpaceMovePositionDto)
  position?: SiteSpaceMovePositionDto;
}

/** `duplicateSiteSpace`'s optional body. */
export class DuplicateSiteSpaceDto {
  @ApiPropertyOptional({
    default: false,
    description:
      'Whether the copy (and a new section) should be drafts. Bindery has no drafts: only ' +
      'false is accepted, and the copy is live.',
  })
  @IsOptional()
  @IsBoolean()
  draft?: boolean;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, ValidateIf, ValidateNested } from 'class-validator';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { PageQueryDto } from '../../../platform/pagination/page-query.dto';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import {
  IsCondition,
  MAX_CONDITION_LENGTH,
} from '../../../platform/conditions/condition.validator';

export const trim = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim() : value;
const present = (_: object, value: unknown) => value !== undefined && value !== null;

export class ListSiteSectionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Share key of a `share-link` site; accepted and not needed by members.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  shareKey?: string;
}

export class AddSiteSectionDto {
  @ApiProperty({ description: 'ID of the space to be added to the section as its first variant.' })
  @IsString()
  @Chars(1, 32)
  spaceId!: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 2,
    maxLength: 128,
    nullable: true,
    description: "Title of the section; the space's title when absent or null.",
  })
  @ValidateIf(present)
  @Transform(trim)
  @IsString()
  @Chars(2, 128)
  title?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 50, nullable: true, example: 'gear' })
  @ValidateIf(present)
  @IsString()
  @Chars(1, 50)
  icon?: string | null;
}

export class UpdateSiteSectionDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 128 })
  @PresentNotNull()
  @Transform(trim)
  @IsString()
  @Chars(2, 128)
  title?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: 'Path of the section in the site, unique among its sections.',
  })
  @PresentNotNull()
  @IsString()
  @Chars(1, 100)
  path?: string;

  @ApiPropertyOptional({ description: 'ID of the site space to be the default in this section.' })
  @PresentNotNull()
  @IsString()
  @Chars(1, 32)
  defaultSiteSpace?: string;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_CONDITION_LENGTH,
    nullable: true,
    description:
      'Expression over the visitor claims deciding whether a visitor sees it; null removes it, ' +
      'absent leaves it unchanged.',
  })
  @ValidateIf(present)
  @IsCondition()
  condition?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 50, nullable: true, example: 'gear' })
  @ValidateIf(present)
  @IsString()
  @Chars(1, 50)
  icon?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 256, nullable: true })
  @ValidateIf(present)
  @IsString()
  @MaxChars(256)
  description?: string | null;
}

/** GitBook's `SiteSectionPointer`. */
export class SiteSectionPointerDto {
  @ApiProperty({ enum: ['site-section'] })
  @IsIn(['site-section'])
  type!: 'site-section';

  @ApiProperty({ description: 'ID of a section with the same parent.' })
  @IsString()
  @Chars(1, 32)
  siteSection!: string;
}

/** GitBook's `SiteSectionMovePosition`. */
export class SiteSectionMovePositionDto {
  @ApiPropertyOptional({ type: SiteSectionPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionPointerDto)
  before?: SiteSectionPointerDto;

  @ApiPropertyOptional({ type: SiteSectionPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionPointerDto)
  after?: SiteSectionPointerDto;
}

export class MoveSiteSectionDto {
  @ApiPropertyOptional({
    type: SiteSectionMovePositionDto,
    description: 'Where to move it among its siblings; the end when not provided.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionMovePositionDto)
  position?: SiteSectionMovePositionDto;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PresentNotNull } from '../../../platform/validation/present-not-null';
import { Chars } from '../../../platform/validation/chars';
import { trim } from './site-section.dto';

const present = (_: object, value: unknown) => value !== undefined && value !== null;

export class AddSiteSectionGroupDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @Transform(trim)
  @IsString()
  @Chars(1, 100)
  title!: string;

  @ApiPropertyOptional({ type: String, maxLength: 50, nullable: true, example: 'gear' })
  @ValidateIf(present)
  @IsString()
  @Chars(1, 50)
  icon?: string | null;

  @ApiPropertyOptional({
    type: [String],
    description: 'IDs of sections of the site to move into the group, in this order.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Chars(1, 32, { each: true })
  sections?: string[];

  @ApiPropertyOptional({
    description: 'ID of the group to nest this group under; the site root when not provided.',
  })
  @IsOptional()
  @IsString()
  @Chars(1, 32)
  parent?: string;
}

export class UpdateSiteSectionGroupDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @PresentNotNull()
  @Transform(trim)
  @IsString()
  @Chars(1, 100)
  title?: string;

  @ApiPropertyOptional({ type: String, maxLength: 50, nullable: true, example: 'gear' })
  @ValidateIf(present)
  @IsString()
  @Chars(1, 50)
  icon?: string | null;
}

export class AddSectionToGroupDto {
  @ApiProperty({ description: 'ID of a section of the site.' })
  @IsString()
  @Chars(1, 32)
  sectionId!: string;
}

/** GitBook's `SiteSectionGroupPointer`. */
export class SiteSectionGroupPointerDto {
  @ApiProperty({ enum: ['site-section', 'site-section-group'] })
  @IsIn(['site-section', 'site-section-group'])
  type!: 'site-section' | 'site-section-group';

  @ApiProperty({ description: 'ID of a section or group with the same parent.' })
  @IsString()
  @Chars(1, 32)
  id!: string;
}

/** GitBook's `SiteSectionGroupMovePosition`. */
export class SiteSectionGroupMovePositionDto {
  @ApiPropertyOptional({ type: SiteSectionGroupPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionGroupPointerDto)
  before?: SiteSectionGroupPointerDto;

  @ApiPropertyOptional({ type: SiteSectionGroupPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionGroupPointerDto)
  after?: SiteSectionGroupPointerDto;
}

export class MoveSiteSectionGroupDto {
  @ApiPropertyOptional({
    type: SiteSectionGroupMovePositionDto,
    description: 'Where to move it among its siblings; the end when not provided.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteSectionGroupMovePositionDto)
  position?: SiteSectionGroupMovePositionDto;
}

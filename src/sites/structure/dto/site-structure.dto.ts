import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Chars, MaxChars } from '../../../platform/validation/chars';
import { STRUCTURE_ITEM_TYPES, type StructureItemType } from '../structure-model';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

export class SiteStructureQueryDto {
  @ApiPropertyOptional({
    description: 'Share key of a `share-link` site; accepted and not needed by members.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  shareKey?: string;
}

/** GitBook's `SiteStructureItemPointer`. */
export class SiteStructureItemPointerDto {
  @ApiProperty({ enum: STRUCTURE_ITEM_TYPES })
  @IsIn(STRUCTURE_ITEM_TYPES)
  type!: StructureItemType;

  @ApiProperty({ description: 'ID of the site space, section or section group.' })
  @IsString()
  @Chars(1, 32)
  id!: string;
}

/** GitBook's `SiteStructureItemMovePosition`. */
export class SiteStructureItemMovePositionDto {
  @ApiPropertyOptional({ type: SiteStructureItemPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructureItemPointerDto)
  before?: SiteStructureItemPointerDto;

  @ApiPropertyOptional({ type: SiteStructureItemPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructureItemPointerDto)
  after?: SiteStructureItemPointerDto;
}

export class SortSiteStructureDto {
  @ApiProperty({
    type: SiteStructureItemPointerDto,
    description: 'The site space, section or section group to move.',
  })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructureItemPointerDto)
  item!: SiteStructureItemPointerDto;

  @ApiProperty({
    type: SiteStructureItemMovePositionDto,
    description:
      'Where to move it among its siblings (same section, or same parent group); `{}` moves it ' +
      'to the end.',
  })
  @IsObject()
  @ValidateNested()
  @Type(() => SiteStructureItemMovePositionDto)
  position!: SiteStructureItemMovePositionDto;
}

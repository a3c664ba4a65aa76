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
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { ROLES } from '../../platform/policy/roles';
import type { DefaultLevel } from '../entities/collection.entity';
import { Chars, MaxChars } from '../../platform/validation/chars';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export const DEFAULT_LEVELS = [...ROLES, 'inherit'] as const;

/** GitBook's `createCollection` body. */
export class CreateCollectionDto {
  @ApiPropertyOptional({ maxLength: 50, default: 'Untitled' })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxChars(50)
  title?: string;

  @ApiPropertyOptional({ description: 'ID of a parent collection of the organization.' })
  @IsOptional()
  @IsString()
  @Chars(1, 32)
  parent?: string;
}

/** GitBook's `updateCollectionById` body: absent = unchanged. */
export class UpdateCollectionDto {
  @ApiPropertyOptional({ maxLength: 50 })
  @PresentNotNull()
  @Transform(trim)
  @IsString()
  @MaxChars(50)
  title?: string;

  @ApiPropertyOptional({ maxLength: 100, nullable: true, description: 'null clears it.' })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxChars(100)
  description?: string | null;

  @ApiPropertyOptional({
    enum: DEFAULT_LEVELS,
    nullable: true,
    description:
      "Role of organization members on the collection; `inherit` takes the parent's (the " +
      "organization's default role at the root); null gives none.",
  })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsIn(DEFAULT_LEVELS)
  defaultLevel?: DefaultLevel;
}

export class ListCollectionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: 'List sub-collections too; false lists only top-level collections.',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'true' ? true : value === 'false' ? false : value,
  )
  @IsBoolean()
  nested?: boolean;
}

/** GitBook's `CollectionPointer` / `SpacePointer`. */
export class ContentPointerDto {
  @ApiProperty({ enum: ['collection', 'space'] })
  @IsIn(['collection', 'space'])
  type!: 'collection' | 'space';

  @ApiPropertyOptional({ description: 'With `type: collection`.' })
  @ValidateIf((pointer: ContentPointerDto) => pointer.type === 'collection')
  @IsString()
  @Chars(1, 32)
  collection?: string;

  @ApiPropertyOptional({ description: 'With `type: space`.' })
  @ValidateIf((pointer: ContentPointerDto) => pointer.type === 'space')
  @IsString()
  @Chars(1, 32)
  space?: string;
}

/** GitBook's `ContentPosition`. */
export class ContentPositionDto {
  @ApiPropertyOptional({ type: ContentPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPointerDto)
  before?: ContentPointerDto;

  @ApiPropertyOptional({ type: ContentPointerDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPointerDto)
  after?: ContentPointerDto;
}

/** GitBook's `moveCollection` and `moveSpace` body: at least one property. */
export class MoveContentDto {
  @ApiPropertyOptional({
    nullable: true,
    description: 'The new parent collection; null moves to the organization root.',
  })
  @ValidateIf((_, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @Chars(1, 32)
  parent?: string | null;

  @ApiPropertyOptional({
    type: ContentPositionDto,
    description: 'Where among its new siblings; at the end when absent.',
  })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => ContentPositionDto)
  position?: ContentPositionDto;
}

/** GitBook's `transferCollection` and `transferSpace` body. */
export class TransferContentDto {
  @ApiProperty({ description: 'The unique id of the target organization.' })
  @IsString()
  @Chars(1, 32)
  organization!: string;
}

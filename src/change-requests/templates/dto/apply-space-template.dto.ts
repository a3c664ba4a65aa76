import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Chars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

/** GitBook's `SpaceTemplateParams`. */
export class SpaceTemplateParamsDto {
  @ApiPropertyOptional({
    description: 'Content references the template uses, by name (`spec` for `api-reference`).',
    type: 'object',
    additionalProperties: { type: 'object' },
  })
  @PresentNotNull()
  @IsObject()
  contentRefs?: Record<string, unknown>;
}

/** GitBook's `ApplySpaceTemplate`, with 0.202.0's `changeRequestId`. */
export class ApplySpaceTemplateDto {
  @ApiProperty({ description: 'The ID of the template to use for the space.' })
  @IsString()
  @Chars(1, 64)
  id!: string;

  @ApiPropertyOptional({ type: SpaceTemplateParamsDto })
  @PresentNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => SpaceTemplateParamsDto)
  params?: SpaceTemplateParamsDto;

  @ApiPropertyOptional({
    description: 'Apply the template in this change request instead of the primary content.',
  })
  @IsOptional()
  @IsString()
  changeRequestId?: string;
}

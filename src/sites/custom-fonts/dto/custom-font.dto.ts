import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Chars } from '../../../platform/validation/chars';
import { PresentNotNull } from '../../../platform/validation/present-not-null';

/** Most faces (weights) one font has. */
export const MAX_FONT_FACES = 20;

const WEIGHT = {
  type: 'integer',
  minimum: 1,
  maximum: 1000,
  description: 'Numeric font weight (400 regular, 500 medium, 700 bold, 900 black).',
  example: 400,
} as const;
const FONT_FAMILY = {
  minLength: 1,
  maxLength: 50,
  description: 'The CSS font-family name (e.g. "Open Sans").',
  example: 'Brand Sans',
} as const;
const STORAGE_KEY = {
  minLength: 1,
  maxLength: 512,
  description:
    'The `key` of a `generateStorageUploadURL` with kind `customization_font` whose file was ' +
    'sent; the font takes the file (the key cannot be used again).',
} as const;

class FontWeightField {
  @ApiProperty(WEIGHT)
  @IsInt()
  @Min(1)
  @Max(1000)
  weight!: number;
}

export class CustomFontFaceInputDto extends FontWeightField {
  @ApiProperty(STORAGE_KEY)
  @IsString()
  @Chars(1, 512)
  storageKey!: string;
}

export class CustomFontFaceUpdateDto extends FontWeightField {
  @ApiProperty({
    ...STORAGE_KEY,
    type: String,
    nullable: true,
    description: `${STORAGE_KEY.description} null removes that weight.`,
  })
  @ValidateIf((_, value: unknown) => value !== null)
  @IsString()
  @Chars(1, 512)
  storageKey!: string | null;
}

/** Body of `createCustomFont`. */
export class CreateCustomFontDto {
  @ApiProperty(FONT_FAMILY)
  @IsString()
  @Chars(1, 50)
  fontFamily!: string;

  @ApiProperty({
    type: [CustomFontFaceInputDto],
    minItems: 1,
    maxItems: MAX_FONT_FACES,
    description:
      'A file per weight, one face per weight. A regular face (weight 400) is required (412 ' +
      'without one).',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FONT_FACES)
  @ValidateNested({ each: true })
  @Type(() => CustomFontFaceInputDto)
  fontFaces!: CustomFontFaceInputDto[];
}

/** Body of `updateCustomFont`: what is left out is unchanged. */
export class UpdateCustomFontDto {
  @ApiPropertyOptional(FONT_FAMILY)
  @PresentNotNull()
  @IsString()
  @Chars(1, 50)
  fontFamily?: string;

  @ApiPropertyOptional({
    type: [CustomFontFaceUpdateDto],
    maxItems: MAX_FONT_FACES,
    description:
      'Faces to set (a new file for the weight) or, with `storageKey: null`, to remove; the ' +
      'weights left out keep their file. The regular face (400) cannot go (412).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_FONT_FACES)
  @ValidateNested({ each: true })
  @Type(() => CustomFontFaceUpdateDto)
  fontFaces?: CustomFontFaceUpdateDto[];
}

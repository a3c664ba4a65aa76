import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FontSourceResponse {
  @ApiProperty({
    format: 'uri',
    description: 'The file: public, cached for a year, loadable from any origin.',
  })
  url!: string;

  @ApiPropertyOptional({
    enum: ['woff2', 'woff'],
    description: 'Absent for TrueType and OpenType files (GitBook names only these two).',
  })
  format?: 'woff2' | 'woff';
}

export class FontFaceResponse {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1000 }) weight!: number;
  @ApiProperty({ type: [FontSourceResponse] }) sources!: FontSourceResponse[];
}

class CustomFontPermissions {
  @ApiProperty({ description: 'May change and delete it: organization admins.' }) edit!: boolean;
}

/** GitBook's `CustomizationFontDefinitionInput`: what a site customization names. */
export class CustomFontDefinition {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'Always true: a font of the organization.' }) custom!: true;
  @ApiProperty({ minLength: 1, maxLength: 50 }) fontFamily!: string;
  @ApiProperty({ type: [FontFaceResponse], description: 'By weight, ascending.' })
  fontFaces!: FontFaceResponse[];
}

/** GitBook's `CustomizationFontDefinition`. */
export class CustomFontResponse extends CustomFontDefinition {
  @ApiProperty({ type: CustomFontPermissions }) permissions!: CustomFontPermissions;
}

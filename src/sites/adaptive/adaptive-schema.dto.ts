import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

/** `updateSiteAdaptiveSchema` body. */
export class UpdateSiteAdaptiveSchemaDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Draft-07 JSON Schema of the visitor claims: `type: "object"`, `additionalProperties: ' +
      'false`, `properties` of claims (boolean, string, string enum, number, arrays of those, ' +
      'nested objects; each with a `description`) and an optional `unsigned` object of ' +
      'unsigned claims.',
  })
  @IsObject()
  jsonSchema!: Record<string, unknown>;
}

/** GitBook's `SiteAdaptiveSchema`. */
export class SiteAdaptiveSchemaResponse {
  @ApiProperty({ enum: ['site-adaptive-schema'] }) object!: 'site-adaptive-schema';
  @ApiProperty({ type: 'object', additionalProperties: true }) jsonSchema!: object;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class SiteAdaptiveTemplateConditionResponse {
  @ApiProperty({ description: 'A short description of the suggested condition.' })
  description!: string;
  @ApiProperty({ description: 'The suggested condition.' }) condition!: string;
}

export class SiteAdaptiveTemplateConditionsResponse {
  @ApiProperty({ type: [SiteAdaptiveTemplateConditionResponse] })
  items!: SiteAdaptiveTemplateConditionResponse[];
}

import { ApiProperty } from '@nestjs/swagger';

export class GlossaryEntryUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the glossary entry in the API.' })
  location!: string;
}

/** GitBook's `GlossaryEntry`. */
export class GlossaryEntryResponse {
  @ApiProperty({ enum: ['glossary-entry'] }) object!: 'glossary-entry';
  @ApiProperty() id!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'The term by language code.',
    example: { en: 'space', fr: 'espace' },
  })
  translations!: Record<string, string>;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ type: GlossaryEntryUrlsResponse }) urls!: GlossaryEntryUrlsResponse;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  OPENAPI_PROCESS_ERROR_CODES,
  OPENAPI_PROCESSING_STATES,
  OPENAPI_VISIBILITIES,
  type OpenAPIProcessErrorCode,
  type OpenAPIProcessingState,
  type OpenAPIVisibility,
} from '../entities/openapi-spec.entity';

export class OpenAPIErrorObjectResponse {
  @ApiProperty({ description: 'What is wrong, and where (file and JSON pointer) when known.' })
  message!: string;
  @ApiPropertyOptional({
    description:
      'Kind of problem: FETCH_TIMEOUT, FETCH_ERROR, SYNTAX_ERROR, UNSUPPORTED_DOCUMENT, ' +
      'INVALID_REFERENCE or INVALID_DOCUMENT.',
  })
  code?: string;
}

export class OpenAPISpecPermissionsResponse {
  @ApiProperty({ description: 'Can the caller view the specification.' }) view!: boolean;
  @ApiProperty({ description: 'Can the caller change or delete the specification.' })
  edit!: boolean;
}

export class OpenAPISpecUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the specification in the API.' })
  location!: string;
  @ApiProperty({ format: 'uri', description: 'URL of the specification in the application.' })
  app!: string;
  @ApiPropertyOptional({
    format: 'uri',
    description:
      'Only for a `public` specification: where anyone reads its latest version, as one JSON ' +
      'document (PUBLIC_URL/v1/openapi/{organizationId}/{specSlug}).',
  })
  published?: string;
}

/** GitBook's `OpenAPISpec`. */
export class OpenAPISpecResponse {
  @ApiProperty({ enum: ['openapi-spec'] }) object!: 'openapi-spec';
  @ApiProperty() id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
  @ApiProperty({ minLength: 1, maxLength: 100 }) slug!: string;
  @ApiPropertyOptional({ format: 'uri', maxLength: 2048, description: 'Absent for a text source.' })
  sourceURL?: string;
  @ApiProperty({ enum: OPENAPI_PROCESSING_STATES }) processingState!: OpenAPIProcessingState;
  @ApiPropertyOptional({ enum: OPENAPI_VISIBILITIES }) visibility?: OpenAPIVisibility;
  @ApiPropertyOptional({ description: 'ID of the latest version.' }) lastVersion?: string;
  @ApiPropertyOptional({ format: 'date-time' }) lastProcessedAt?: string;
  @ApiPropertyOptional({
    enum: OPENAPI_PROCESS_ERROR_CODES,
    description: 'Why the last processing failed (the previous version stays the latest).',
  })
  lastProcessErrorCode?: OpenAPIProcessErrorCode;
  @ApiPropertyOptional({ type: [OpenAPIErrorObjectResponse] })
  lastProcessedErrors?: OpenAPIErrorObjectResponse[];
  @ApiProperty({ type: OpenAPISpecPermissionsResponse })
  permissions!: OpenAPISpecPermissionsResponse;
  @ApiProperty({ type: OpenAPISpecUrlsResponse }) urls!: OpenAPISpecUrlsResponse;
}

export class OpenAPISpecVersionUrlsResponse {
  @ApiProperty({ format: 'uri', description: 'URL of the version in the API.' })
  location!: string;
}

/** GitBook's `OpenAPISpecVersion`. */
export class OpenAPISpecVersionResponse {
  @ApiProperty({ enum: ['openapi-spec-version'] }) object!: 'openapi-spec-version';
  @ApiProperty() id!: string;
  @ApiPropertyOptional({ format: 'date-time' }) createdAt?: string;
  @ApiProperty({
    format: 'uri',
    description:
      'Where the root document was read (after redirects), or for a text source the URL of ' +
      'this version’s content in the API.',
  })
  url!: string;
  @ApiProperty({ type: OpenAPISpecVersionUrlsResponse }) urls!: OpenAPISpecVersionUrlsResponse;
}

/** GitBook's `OpenAPISpecContent`. */
export class OpenAPISpecContentResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The documents of the version by path: the root document (its file name, or ' +
      '`openapi.json` / `openapi.yaml` for a text source) and each file its relative `$ref`s ' +
      'reach, by path relative to the root’s folder; each as parsed, `$ref`s unchanged.',
  })
  filesystem!: Record<string, unknown>;
  @ApiProperty({ format: 'uri', description: 'As the version’s `url`.' }) url!: string;
}

/** GitBook's `OpenAPISpecRawContent`: the root document's text as given, and its format. */
export class OpenAPISpecRawContentResponse {
  @ApiProperty({ description: 'The specification text, exactly as given or fetched.' })
  text!: string;
  @ApiProperty({ enum: ['json', 'yaml'], description: 'Format of the text.' })
  format!: 'json' | 'yaml';
}

import { Controller, Get, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { openAPISpecNotFound } from '../openapi.service';
import { OpenAPISpecs } from '../openapi-specs';

/** `urls.published` of a public specification: its latest version, for anyone. */
@Controller('openapi/:organizationId/:specSlug')
export class PublishedOpenAPIController {
  constructor(private readonly specs: OpenAPISpecs) {}

  @Get()
  @Access.public()
  @ApiOperation({
    operationId: 'getPublishedOpenAPISpec',
    summary: 'Get a public OpenAPI specification (Bindery)',
    description:
      'Not in GitBook’s API. The latest version of a `public` specification as one JSON ' +
      'document (parts of other files moved in, their `$ref`s made internal). No token needed; ' +
      '404 for a private specification, or one without a version yet.',
  })
  @ApiOkResponse({
    description: 'The OpenAPI (or Swagger 2.0) document.',
    schema: { type: 'object', additionalProperties: true },
  })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such public specification.' })
  async get(
    @Param('organizationId') organizationId: string,
    @Param('specSlug') slug: string,
  ): Promise<Record<string, unknown>> {
    const document = await this.specs.publishedDocument(organizationId, slug);
    if (!document) throw openAPISpecNotFound();
    return document;
  }
}

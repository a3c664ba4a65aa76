import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiServiceUnavailableResponse,
} from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { Response } from 'express';
import { decompressFromEncodedURIComponent } from 'lz-string';
import { Access, CurrentActor, Granted } from '../../platform/auth/access.decorator';
import { invalidInput } from '../../platform/errors/domain-error';
import { ErrorBody } from '../../platform/errors/error-body';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { Integration } from '../entities/integration.entity';
import { RenderIntegrationUIDto } from './dto/render.dto';
import {
  IntegrationRenderService,
  type RenderCaller,
  type RenderOutput,
} from './integration-render.service';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });
const failed = ApiServiceUnavailableResponse({
  type: ErrorBody,
  description: "The integration's script did not answer ContentKit's render output.",
});
const RENDERED = {
  description: 'ContentKit element to render',
  schema: { type: 'object', additionalProperties: true },
};

/**
 * ContentKit renders of an integration's components (GitBook's `renderIntegrationUIWithGet` and
 * `…WithPost`): what the editor and the renderer ask to draw an integration's block or
 * configuration form. The caller must see the integration and the space (or administer what it
 * configures); the integration must be installed there. A published site's token (GitBook's
 * renderer draws a page's integration blocks with it) renders the blocks of the spaces its site
 * shows, read-only.
 */
@Controller('integrations/:integrationName/render')
export class IntegrationRenderController {
  constructor(private readonly renders: IntegrationRenderService) {}

  @Post()
  @HttpCode(200)
  @Access('integration', 'view', { param: 'integrationName', reads: true, siteReaders: true })
  @ApiOperation({
    operationId: 'renderIntegrationUIWithPost',
    summary: "Render an integration's ContentKit component",
    description:
      "The script's `ui_render` answer: an element with its state and props, or a completed " +
      "action; `Cache-Control` as the component set it. A published site's token renders the " +
      'blocks of the spaces its site shows (`document`, not `editable`).',
  })
  @ApiOkResponse(RENDERED)
  @badRequest
  @failed
  async post(
    @CurrentActor() caller: RenderCaller,
    @Granted() access: ResolvedAccess<Integration>,
    @Body() body: RenderIntegrationUIDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Record<string, unknown>> {
    return answer(await this.renders.render(caller, access, body), response);
  }

  @Get()
  @Access('integration', 'view', { param: 'integrationName', siteReaders: true })
  @ApiOperation({
    operationId: 'renderIntegrationUIWithGet',
    summary: "Render an integration's ContentKit component (cacheable)",
    description:
      'As the POST, with the request as LZ-string compressed JSON in `request` ' +
      '(`compressToEncodedURIComponent`), so that the answer can be cached.',
  })
  @ApiQuery({ name: 'request', required: true, description: 'LZ-string compressed JSON request' })
  @ApiOkResponse(RENDERED)
  @badRequest
  @failed
  async get(
    @CurrentActor() caller: RenderCaller,
    @Granted() access: ResolvedAccess<Integration>,
    @Query('request') encoded: unknown,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Record<string, unknown>> {
    return answer(
      await this.renders.render(caller, access, await decodeRequest(encoded)),
      response,
    );
  }
}

function answer({ output, cacheControl }: RenderOutput, response: Response) {
  if (cacheControl) response.setHeader('Cache-Control', cacheControl);
  return output;
}

async function decodeRequest(encoded: unknown): Promise<RenderIntegrationUIDto> {
  if (typeof encoded !== 'string' || encoded.length === 0 || encoded.length > 64 * 1024) {
    throw invalidInput('request must be the LZ-string compressed JSON of the render request');
  }
  let json: unknown;
  try {
    json = JSON.parse(decompressFromEncodedURIComponent(encoded) ?? '');
  } catch {
    throw invalidInput('request must be the LZ-string compressed JSON of the render request');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw invalidInput('request must hold the render request, an object');
  }
  const dto = plainToInstance(RenderIntegrationUIDto, json);
  const [first] = await validate(dto);
  if (first) {
    throw invalidInput(Object.values(first.constraints ?? {})[0] ?? `${first.property} is invalid`);
  }
  return dto;
}

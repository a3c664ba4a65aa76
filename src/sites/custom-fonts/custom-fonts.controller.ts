import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { mapPage, Page, PageOf } from '../../platform/pagination/page';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import type { ResolvedAccess } from '../../platform/policy/access';
import { CustomFontsPresenter } from './custom-fonts.presenter';
import { CustomFontsService } from './custom-fonts.service';
import { CreateCustomFontDto, UpdateCustomFontDto } from './dto/custom-font.dto';
import { CustomFontResponse } from './dto/custom-font.response';

const FONT_NOT_FOUND = 'No such font in the organization.';
const badRequest = ApiBadRequestResponse({
  type: ErrorBody,
  description: 'Invalid input, or a `storageKey` that holds no font file of the organization.',
});
const noRegularFace = ApiPreconditionFailedResponse({
  type: ErrorBody,
  description: 'No regular face (weight 400) would be left.',
});

/**
 * The organization's custom fonts, which its sites' customizations name (`styling.font`).
 * Members with a role read them; admins write them, as they own the organization's settings.
 */
@Controller('orgs/:organizationId/fonts')
export class CustomFontsController {
  constructor(
    private readonly fonts: CustomFontsService,
    private readonly presenter: CustomFontsPresenter,
  ) {}

  @Get()
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'listCustomFonts',
    summary: 'List all custom fonts',
    description: "The organization's custom fonts, oldest first.",
  })
  @ApiOkResponse({ type: PageOf(CustomFontResponse) })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid query.' })
  async list(
    @Granted() organization: ResolvedAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<CustomFontResponse>> {
    const page = await this.fonts.list(organization.id, query);
    return mapPage(page, (font) => this.presenter.present(font, organization.role));
  }

  @Put()
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'createCustomFont',
    summary: 'Create a custom font',
    description:
      'A font family with a file per weight. Each file is first sent to the URL of a ' +
      '`generateStorageUploadURL` with kind `customization_font` (WOFF2, WOFF, TrueType or ' +
      "OpenType); its `key` is the face's `storageKey`. The font takes the files over: they " +
      'are served at the URLs of `fontFaces[].sources`, publicly, cached for good and loadable ' +
      'from any origin, as sites load them.',
  })
  @ApiCreatedResponse({ type: CustomFontResponse })
  @badRequest
  @noRegularFace
  async create(
    @Granted() organization: ResolvedAccess,
    @Body() body: CreateCustomFontDto,
  ): Promise<CustomFontResponse> {
    const font = await this.fonts.create(organization.id, body);
    return this.presenter.present(font, organization.role);
  }

  @Get(':fontId')
  @Access('organization', 'read')
  @ApiOperation({
    operationId: 'getCustomFont',
    summary: 'Get a custom font by its ID',
    description: 'The font, with the URL of the file of each of its weights.',
  })
  @ApiOkResponse({ type: CustomFontResponse })
  async get(
    @Granted() organization: ResolvedAccess,
    @Param('fontId') fontId: string,
  ): Promise<CustomFontResponse> {
    return this.presenter.present(await this.fonts.get(organization.id, fontId), organization.role);
  }

  @Post(':fontId')
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateCustomFont',
    summary: 'Update a custom font',
    description:
      'Renames it and sets faces (a new file for a weight, by `storageKey`) or removes them ' +
      '(`storageKey: null`); weights left out are unchanged. The sites using it are ' +
      "revalidated. 201, as GitBook's API answers.",
  })
  @ApiCreatedResponse({ type: CustomFontResponse })
  @badRequest
  @noRegularFace
  async update(
    @Granted() organization: ResolvedAccess,
    @Param('fontId') fontId: string,
    @Body() body: UpdateCustomFontDto,
  ): Promise<CustomFontResponse> {
    const font = await this.fonts.update(organization.id, fontId, body);
    return this.presenter.present(font, organization.role);
  }

  @Delete(':fontId')
  @HttpCode(204)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'deleteCustomFont',
    summary: 'Delete a custom font',
    description:
      '205 when the font was deleted, with its files; 204 when the organization had no such ' +
      'font. Sites that use it fall back to the default font (`Inter`, `IBMPlexMono` for ' +
      "code; a site space to its site's font) and are revalidated.",
  })
  @ApiResponse({ status: 205, description: 'Custom font deleted.' })
  @ApiNoContentResponse({ description: FONT_NOT_FOUND })
  async remove(
    @Granted() organization: ResolvedAccess,
    @Param('fontId') fontId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    if (await this.fonts.delete(organization.id, fontId)) response.status(205);
  }
}

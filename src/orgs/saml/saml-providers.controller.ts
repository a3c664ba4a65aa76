import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { Page, PageOf } from '../../platform/pagination/page';
import type { ResolvedAccess } from '../../platform/policy/access';
import { CreateSamlProviderDto, UpdateSamlProviderDto } from './dto/create-saml-provider.dto';
import { SamlProviderResponse, SsoProviderLoginsResponse } from './dto/saml-provider.response';
import { SamlProvidersPresenter } from './saml-providers.presenter';
import { SamlProvidersService } from './saml-providers.service';

@Controller('orgs/:organizationId')
export class SamlProvidersController {
  constructor(
    private readonly providers: SamlProvidersService,
    private readonly presenter: SamlProvidersPresenter,
  ) {}

  @Get('saml')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'listSAMLProvidersInOrganizationById',
    summary: 'List all SAML providers',
    description: 'Oldest first.',
  })
  @ApiOkResponse({ type: PageOf(SamlProviderResponse) })
  async list(
    @Granted() access: ResolvedAccess,
    @Query() query: PageQueryDto,
  ): Promise<Page<SamlProviderResponse>> {
    const page = await this.providers.list(access.organizationId, query);
    return {
      ...page,
      items: page.items.map((view) => this.presenter.present(view, access.role)),
    };
  }

  @Post('saml')
  @HttpCode(201)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'createOrganizationSAMLProvider',
    summary: 'Create a SAML provider',
  })
  @ApiCreatedResponse({ type: SamlProviderResponse })
  async create(
    @Granted() access: ResolvedAccess,
    @Body() body: CreateSamlProviderDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SamlProviderResponse> {
    const view = await this.providers.create(access.organizationId, body);
    response.location(this.presenter.location(view.provider));
    return this.presenter.present(view, access.role);
  }

  @Get('saml/:samlProviderId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'getOrganizationSAMLProviderById',
    summary: 'Get a SAML provider by its ID',
  })
  @ApiOkResponse({ type: SamlProviderResponse })
  async get(
    @Granted() access: ResolvedAccess,
    @Param('samlProviderId') samlProviderId: string,
  ): Promise<SamlProviderResponse> {
    const view = await this.providers.get(access.organizationId, samlProviderId);
    return this.presenter.present(view, access.role);
  }

  @Patch('saml/:samlProviderId')
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'updateOrganizationSAMLProvider',
    summary: 'Update a SAML provider',
  })
  @ApiOkResponse({ type: SamlProviderResponse })
  async update(
    @Granted() access: ResolvedAccess,
    @Param('samlProviderId') samlProviderId: string,
    @Body() body: UpdateSamlProviderDto,
  ): Promise<SamlProviderResponse> {
    const view = await this.providers.update(access.organizationId, samlProviderId, body);
    return this.presenter.present(view, access.role);
  }

  @Delete('saml/:samlProviderId')
  @HttpCode(204)
  @Access('organization', 'admin')
  @ApiOperation({
    operationId: 'deleteOrganizationSAMLProvider',
    summary: 'Delete a SAML provider',
    description: 'Answers 204 also when the provider does not exist.',
  })
  @ApiNoContentResponse({ description: 'Deleted, or did not exist.' })
  async remove(
    @Granted() access: ResolvedAccess,
    @Param('samlProviderId') samlProviderId: string,
  ): Promise<void> {
    await this.providers.remove(access.organizationId, samlProviderId);
  }

  @Get('sso')
  @Access('organization', 'view')
  @ApiOperation({
    operationId: 'listSSOProviderLoginsInOrganization',
    summary: 'List all SSO provider login infos',
    description: 'The providers members can sign in with (the active ones); not paginated.',
  })
  @ApiOkResponse({ type: SsoProviderLoginsResponse })
  async listLogins(@Granted() access: ResolvedAccess): Promise<SsoProviderLoginsResponse> {
    const providers = await this.providers.listActive(access.organizationId);
    return { items: providers.map((provider) => this.presenter.login(provider)) };
  }
}

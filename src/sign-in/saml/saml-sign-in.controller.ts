import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiFoundResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { FormBody } from '../../platform/validation/request-body';
import {
  ExchangeSsoSignInCodeDto,
  SamlAssertionFormDto,
  SsoTokenResponse,
  StartSamlSignInQueryDto,
} from './dto/saml-sign-in.dto';
import {
  SamlSignInService,
  SAML_CLOCK_SKEW_MS,
  SSO_CODE_TTL_SECONDS,
} from './saml-sign-in.service';
import { SignInPageFilter } from './sign-in-page.filter';
import { PAGE_CONTENT, PAGE_HEADERS } from '../html-page';
import { tokenPage } from './sign-in-pages';

/**
 * Bindery's service-provider side of an organization's SAML provider (the `service` URLs its
 * response shows), and the exchange of a sign-in's one-time code. No token: they are how a
 * person gets one.
 */
@Controller()
export class SamlSignInController {
  constructor(
    private readonly signIn: SamlSignInService,
    private readonly urls: UrlBuilder,
  ) {}

  @Get('saml/:samlProviderId')
  @Access.public()
  @ApiOperation({
    operationId: 'getSamlServiceProviderMetadata',
    summary: "Get the SAML service provider's metadata of a provider",
    description:
      "Bindery's metadata for the identity provider: its entity ID (this URL) and assertion " +
      'consumer service (HTTP-POST), signed assertions wanted, email NameID.',
  })
  @ApiProduces('application/samlmetadata+xml')
  @ApiOkResponse({ description: 'The metadata XML.', schema: { type: 'string' } })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such SAML provider.' })
  async metadata(
    @Param('samlProviderId') samlProviderId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const xml = await this.signIn.metadata(samlProviderId);
    response.type('application/samlmetadata+xml');
    return xml;
  }

  @Get('saml/:samlProviderId/start')
  @Access.public()
  @ApiOperation({
    operationId: 'startSamlSignIn',
    summary: 'Start a SAML sign-in',
    description:
      "Redirects to the identity provider's sign-in URL with an AuthnRequest (HTTP-Redirect " +
      'binding) and a signed RelayState, valid 30 minutes.',
  })
  @ApiFoundResponse({ description: "To the identity provider's sign-in URL." })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'redirect_uri not allowed.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such SAML provider.' })
  @ApiConflictResponse({ type: ErrorBody, description: 'The provider is still pending.' })
  async start(
    @Param('samlProviderId') samlProviderId: string,
    @Query() query: StartSamlSignInQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    const url = await this.signIn.start(samlProviderId, query.redirect_uri);
    response.set('Cache-Control', 'no-store').redirect(302, url);
  }

  @Post('saml/:samlProviderId/acs')
  @Access.public()
  @FormBody()
  @UseFilters(SignInPageFilter)
  @ApiOperation({
    operationId: 'consumeSamlAssertion',
    summary: 'Sign in with a SAML response (assertion consumer service)',
    description:
      "Where the identity provider posts its response. Checks its signature (the provider's " +
      'certificate), audience, recipient, issuer, times (clock skew ' +
      `${SAML_CLOCK_SKEW_MS / 1000} s), request and single use; then signs its person in to ` +
      'the organization (just-in-time membership) and redirects to the redirect URI with a ' +
      `one-time code (${SSO_CODE_TTL_SECONDS} s), or shows the token on a page. Failures ` +
      'answer an HTML page with a 4xx status.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOkResponse({
    description: 'A page showing the token (no redirect URI).',
    content: PAGE_CONTENT,
  })
  @ApiFoundResponse({ description: 'To the redirect URI, with `code`.' })
  @ApiBadRequestResponse({
    description: 'The response is refused (HTML page).',
    content: PAGE_CONTENT,
  })
  @ApiForbiddenResponse({
    description: 'The person may not sign in (HTML page).',
    content: PAGE_CONTENT,
  })
  async consume(
    @Param('samlProviderId') samlProviderId: string,
    @Body() form: SamlAssertionFormDto,
    @Res() response: Response,
  ): Promise<void> {
    const outcome = await this.signIn.consume(samlProviderId, form);
    if (outcome.kind === 'redirect') {
      response.set('Cache-Control', 'no-store').redirect(302, outcome.url);
      return;
    }
    const { organization, user } = outcome;
    response
      .status(200)
      .set(PAGE_HEADERS)
      .send(
        tokenPage({
          token: outcome.token,
          expiresAt: outcome.expiresAt,
          organization,
          user,
          organizationUrl: this.urls.api('orgs', organization.id),
        }),
      );
  }

  @Post('sso/token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Access.public()
  @ApiOperation({
    operationId: 'exchangeSsoSignInCode',
    summary: "Exchange a SAML sign-in's one-time code for an API token",
    description:
      'The `code` a sign-in sent to its redirect URI, once, within ' +
      `${SSO_CODE_TTL_SECONDS} seconds. The token reaches the provider's organization only ` +
      'and expires after SSO_SESSION_HOURS.',
  })
  @ApiOkResponse({ type: SsoTokenResponse })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Unknown, used or expired code.' })
  async exchange(@Body() body: ExchangeSsoSignInCodeDto): Promise<SsoTokenResponse> {
    const grant = await this.signIn.exchange(body.code);
    const response: SsoTokenResponse = {
      token: grant.token,
      expiresAt: grant.expiresAt.toISOString(),
      organizationId: grant.organizationId,
      user: { id: grant.user.id, email: grant.user.email, displayName: grant.user.displayName },
    };
    return response;
  }
}

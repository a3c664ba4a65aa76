import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiExtraModels,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Access } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { FormBody } from '../../platform/validation/request-body';
import { EmailInvitesService } from '../../invites/email-invites.service';
import { roleName } from '../../invites/invitation-mail';
import { html, PAGE_CONTENT, sendErrorPage, sendPage } from '../html-page';
import { SamlProvidersService } from '../../orgs/saml/saml-providers.service';
import { SamlProvidersPresenter } from '../../orgs/saml/saml-providers.presenter';
import {
  AcceptedInvitationResponse,
  AcceptInvitationDto,
  InvitationLinkQueryDto,
} from './dto/invitation.dto';

/**
 * The link of an emailed invitation: a page that says what it is, and its form, which accepts
 * it. No token: the link's signature is the authorization. API clients may accept it too, by
 * posting JSON to the same address.
 */
@Controller('invitations/:inviteId')
export class InvitationsController {
  constructor(
    private readonly invites: EmailInvitesService,
    private readonly urls: UrlBuilder,
    private readonly samlProviders: SamlProvidersService,
    private readonly samlPresenter: SamlProvidersPresenter,
  ) {}

  @Get()
  @Access.public()
  @ApiOperation({
    operationId: 'getInvitationPage',
    summary: 'Open an emailed invitation (HTML)',
    description:
      'Bindery extension: the page an invitation email links to, with the form that accepts it.',
  })
  @ApiOkResponse({ description: 'The page.', content: PAGE_CONTENT })
  @ApiForbiddenResponse({
    description: 'The link has expired (a page that says so).',
    content: PAGE_CONTENT,
  })
  @ApiNotFoundResponse({
    content: PAGE_CONTENT,
    description: 'The invitation was accepted or revoked, or the link is not one.',
  })
  async page(
    @Param('inviteId') inviteId: string,
    @Query() query: InvitationLinkQueryDto,
    @Res() response: Response,
  ): Promise<void> {
    let opened;
    try {
      opened = await this.invites.open(inviteId, query);
    } catch (error) {
      return sendErrorPage(response, error, 'Invitation');
    }
    const { invite, organization } = opened;
    const title = `Join ${organization.title}`;
    const invited = html`<p>
      You are invited to join <strong>${organization.title}</strong> as ${roleName(invite.role)},
      with the address <strong>${invite.email}</strong>.
    </p>`;
    if (organization.sso || invite.sso) {
      const providers = await this.samlProviders.listActive(organization.id);
      const links = providers.map((provider) => {
        const { label, startURL } = this.samlPresenter.login(provider);
        return html`<li><a href="${startURL}">Sign in with ${label}</a></li>`;
      });
      return sendPage(
        response,
        200,
        title,
        html`${invited}
          <p>
            ${organization.title} signs its members in with single sign-on: accept this invitation
            by signing in with its identity provider, with this address.
          </p>
          ${
            providers.length > 0
              ? html`<ul>
                  ${links}
                </ul>`
              : html`<p>It has no identity provider ready yet: ask one of its admins.</p>`
          }`,
      );
    }
    const action = `${this.urls.api('invitations', invite.id)}?${new URLSearchParams({
      expires: query.expires ?? '',
      signature: query.signature ?? '',
    })}`;
    sendPage(
      response,
      200,
      title,
      html`${invited}
        <form method="post" action="${action}">
          <label for="displayName">Your name</label>
          <input
            id="displayName"
            name="displayName"
            maxlength="255"
            autocomplete="name"
            placeholder="${invite.email.slice(0, invite.email.lastIndexOf('@'))}"
          />
          <button type="submit">Accept the invitation</button>
        </form>
        <p>
          Accepting makes you a user of this Bindery with that address, and gives you an API token.
        </p>`,
    );
  }

  @Post()
  @HttpCode(201)
  @Access.public()
  @FormBody()
  @ApiOperation({
    operationId: 'acceptInvitation',
    summary: 'Accept an emailed invitation',
    description:
      'Bindery extension: with the signed link of an invitation email. A new user with the ' +
      "invited address gets a first API token (shown once); an address that is a user's " +
      'already just joins. Joins at the invited role; a member stays as it is. The invitation ' +
      'is used up. An organization with `sso` on takes invitations through its identity ' +
      'provider instead (403). A form post (the page) answers with a page.',
  })
  @ApiBody({ type: AcceptInvitationDto, required: false })
  @ApiExtraModels(AcceptedInvitationResponse)
  @ApiCreatedResponse({
    description: 'Accepted: the answer, or for a form post, the page that shows it.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(AcceptedInvitationResponse) } },
      ...PAGE_CONTENT,
    },
  })
  @ApiForbiddenResponse({
    type: ErrorBody,
    description:
      'The link has expired, or the organization signs in with SSO, or the user is disabled.',
  })
  @ApiNotFoundResponse({
    type: ErrorBody,
    description: 'The invitation was accepted or revoked, or the link is not one.',
  })
  async accept(
    @Param('inviteId') inviteId: string,
    @Query() query: InvitationLinkQueryDto,
    @Body() body: AcceptInvitationDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AcceptedInvitationResponse | undefined> {
    const fromPage = request.is('application/x-www-form-urlencoded') !== false;
    if (!fromPage) {
      return this.accepted(await this.invites.accept(inviteId, query, body?.displayName));
    }
    let accepted;
    try {
      accepted = await this.invites.accept(inviteId, query, body?.displayName);
    } catch (error) {
      sendErrorPage(response, error, 'Invitation');
      return undefined;
    }
    const { organization, user, token } = accepted;
    const api = this.urls.api('orgs', organization.id);
    sendPage(
      response,
      201,
      `Welcome to ${organization.title}`,
      token
        ? html`<p>You are a member of <strong>${organization.title}</strong>, as ${user.email}.</p>
            <p>Your API token, shown this once: keep it somewhere safe.</p>
            <pre>${token}</pre>
            <p>Try it:</p>
            <pre>curl -H "Authorization: Bearer ${token}" ${api}</pre>`
        : html`<p>
            You are a member of <strong>${organization.title}</strong>, as ${user.email}. Go on with
            your own API tokens.
          </p>`,
    );
    return undefined;
  }

  private accepted({
    organization,
    user,
    token,
  }: Awaited<ReturnType<EmailInvitesService['accept']>>): AcceptedInvitationResponse {
    return {
      object: 'accepted-invitation',
      organizationId: organization.id,
      user: { id: user.id, email: user.email, displayName: user.displayName },
      ...(token ? { token } : {}),
    };
  }
}

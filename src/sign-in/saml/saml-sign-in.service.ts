import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { generateServiceProviderMetadata, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { EmailInvitesService } from '../../invites/email-invites.service';
import { emailDomainOf } from '../../invites/invites.service';
import { Organization } from '../../orgs/entities/organization.entity';
import { MemberEvents } from '../../orgs/members/member-events';
import { MembersRepository } from '../../orgs/members/members.repository';
import { OrganizationsRepository } from '../../orgs/organizations.repository';
import { SamlProvider } from '../../orgs/saml/entities/saml-provider.entity';
import { samlProviderStatus } from '../../orgs/saml/saml-provider-status';
import { SamlProvidersService } from '../../orgs/saml/saml-providers.service';
import { TeamsService } from '../../orgs/teams/teams.service';
import { Clock } from '../../platform/clock/clock';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError, forbidden, invalidInput, notFound } from '../../platform/errors/domain-error';
import { userActor } from '../../platform/events/event-outbox';
import { newSecret, sha256Hex } from '../../platform/ids/ids';
import { InstanceSecret } from '../../platform/settings/instance-secret';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { UrlSigner } from '../../platform/urls/url-signer';
import { User } from '../../users/entities/user.entity';
import { TokensService } from '../../users/tokens.service';
import { UsersService } from '../../users/users.service';
import { isAllowedRedirectUri, withCode } from './redirect-uris';
import { RelayStates } from './relay-state';
import {
  assertionFacts,
  displayNameOf,
  EMAIL_NAME_ID_FORMAT,
  emailOf,
  responseDestination,
  type Attributes,
} from './saml-identity';
import { SamlRequestCache } from './saml-request-cache';
import { SamlSignInRepository } from './saml-sign-in.repository';

/**
 * Difference between Bindery's clock and the identity provider's that the time conditions of
 * an assertion (NotBefore, NotOnOrAfter) tolerate.
 */
export const SAML_CLOCK_SKEW_MS = 60_000;
/** How long a sign-in may take at the identity provider: the AuthnRequest and RelayState. */
export const SAML_REQUEST_TTL_SECONDS = 30 * 60;
/** How long a one-time code sent to a redirect URI may wait for its exchange. */
export const SSO_CODE_TTL_SECONDS = 60;

const MAX_ASSERTION_ID = 256;

/** A sign-in that succeeded: its token now, or a code for its redirect URI. */
export type SamlSignInOutcome =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'token';
      token: string;
      expiresAt: Date;
      organization: Organization;
      user: User;
    };

/** An exchanged code: the token and whom it is for. */
export interface SsoTokenGrant {
  token: string;
  expiresAt: Date;
  organizationId: string;
  user: User;
}

const refused = (message: string) =>
  new DomainError(
    'bad_request',
    'SamlResponseRefused',
    `The identity provider's response was refused: ${message}`,
  );
const notAllowed = (code: string, message: string) => new DomainError('forbidden', code, message);
const invalidCode = () =>
  new DomainError(
    'bad_request',
    'SsoSignInCodeInvalid',
    'The sign-in code is unknown, already used or expired (it is valid once, for 60 seconds).',
  );

/**
 * SAML sign-in to an organization through one of its providers: Bindery's service-provider
 * metadata, the start (an AuthnRequest to the identity provider) and the assertion consumer
 * (checks, just-in-time membership, a token scoped to the organization), and the exchange of
 * the one-time code a sign-in may send to a redirect URI.
 */
@Injectable()
export class SamlSignInService {
  private readonly logger = new Logger('SamlSignIn');
  private readonly relayStates: RelayStates;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly urls: UrlBuilder,
    private readonly providers: SamlProvidersService,
    private readonly repository: SamlSignInRepository,
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly members: MembersRepository,
    private readonly memberEvents: MemberEvents,
    private readonly teams: TeamsService,
    private readonly emailInvites: EmailInvitesService,
    secret: InstanceSecret,
  ) {
    this.relayStates = new RelayStates(
      new UrlSigner(secret, clock, 'bindery-saml-relay-state-v1', SAML_REQUEST_TTL_SECONDS),
    );
  }

  /** The service-provider metadata to give the identity provider (also while pending). */
  async metadata(samlProviderId: string): Promise<string> {
    const provider = await this.provider(samlProviderId);
    return generateServiceProviderMetadata({
      issuer: this.entityId(provider),
      callbackUrl: this.acsUrl(provider),
      identifierFormat: EMAIL_NAME_ID_FORMAT,
      wantAssertionsSigned: true,
    });
  }

  /**
   * The identity provider's sign-in URL with an AuthnRequest (HTTP-Redirect binding) and a
   * signed RelayState; the request is recorded for its answer. 400 for a redirect URI that
   * SSO_REDIRECT_URLS does not allow.
   */
  async start(samlProviderId: string, redirectUri: string | undefined): Promise<string> {
    const provider = this.requireActive(await this.provider(samlProviderId));
    if (
      redirectUri !== undefined &&
      !isAllowedRedirectUri(redirectUri, this.config.ssoRedirectUrls)
    ) {
      throw invalidInput(
        'redirect_uri is not allowed: it must start with one of the URLs of SSO_REDIRECT_URLS.',
      );
    }
    await this.repository.purgeExpired(this.clock.now());
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const relayState = this.relayStates.make({
      providerId: provider.id,
      requestId,
      redirectUri: redirectUri ?? null,
    });
    return this.saml(provider, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /**
   * Checks the identity provider's response and signs its person in. Refused (and nothing
   * written but the assertion's use): a bad signature, another audience, recipient or
   * destination than this provider's, another issuer, an expired assertion, one used before,
   * a response to no request of ours (unless the provider accepts IdP-initiated sign-ins), an
   * address outside the organization's email domains, a disabled user or membership.
   */
  async consume(
    samlProviderId: string,
    form: { SAMLResponse: string; RelayState?: string },
  ): Promise<SamlSignInOutcome> {
    const provider = this.requireActive(await this.provider(samlProviderId));
    let profile;
    try {
      ({ profile } = await this.saml(provider).validatePostResponseAsync({
        SAMLResponse: form.SAMLResponse,
      }));
    } catch (error) {
      this.logger.warn({ samlProviderId, reason: messageOf(error) }, 'SAML response refused');
      throw refused(explained(messageOf(error)));
    }
    if (!profile) throw refused('it carries no assertion.');
    if (profile.issuer !== provider.entityId) {
      throw refused(`its issuer is not this provider's identity provider (${provider.entityId}).`);
    }
    const facts = assertionFacts(profile.getAssertion?.());
    const acsUrl = this.acsUrl(provider);
    if (facts.recipients.length === 0 || facts.recipients.some((r) => r !== acsUrl)) {
      throw refused(`its recipient is not this provider's ACS URL (${acsUrl}).`);
    }
    const destination = responseDestination(profile.getSamlResponseXml?.() ?? '');
    if (destination !== undefined && destination !== acsUrl) {
      throw refused(`its destination is not this provider's ACS URL (${acsUrl}).`);
    }
    if (!facts.id || facts.id.length > MAX_ASSERTION_ID)
      throw refused('the assertion has no valid ID.');
    if (!facts.notOnOrAfter) throw refused('the assertion has no NotOnOrAfter (no expiry).');
    const redirectUri = this.solicitation(
      provider,
      typeof profile.inResponseTo === 'string' ? profile.inResponseTo : undefined,
      facts.inResponseTo,
      form.RelayState,
    );

    const now = this.clock.now();
    await this.repository.purgeExpired(now);
    const firstUse = await this.repository.rememberAssertion({
      providerId: provider.id,
      assertionId: facts.id,
      expiresAt: new Date(
        Math.max(facts.notOnOrAfter.getTime(), now.getTime()) + SAML_CLOCK_SKEW_MS,
      ),
    });
    if (!firstUse) throw refused('this assertion was already used to sign in.');

    const attributes = (profile.attributes ?? {}) as Attributes;
    const email = emailOf(profile, attributes);
    if (!email) {
      throw refused(
        'it names no email address (a NameID of format emailAddress, or an email or mail attribute).',
      );
    }
    return this.dataSource.transaction(async (tx) => {
      const { organization, user } = await this.admit(tx, provider, email, attributes);
      if (redirectUri) {
        const code = newSecret();
        await this.repository.insertCode(
          {
            codeHash: sha256Hex(code),
            providerId: provider.id,
            organizationId: organization.id,
            userId: user.id,
            createdAt: now,
            expiresAt: new Date(now.getTime() + SSO_CODE_TTL_SECONDS * 1000),
          },
          tx,
        );
        return { kind: 'redirect', url: withCode(redirectUri, code) };
      }
      const { token, expiresAt } = await this.issue(tx, provider, user.id);
      return { kind: 'token', token, expiresAt, organization, user };
    });
  }

  /** The token for a code a sign-in sent to its redirect URI; 400 for a used or expired one. */
  async exchange(code: string): Promise<SsoTokenGrant> {
    return this.dataSource.transaction(async (tx) => {
      const taken = await this.repository.takeCode(sha256Hex(code), this.clock.now(), tx);
      if (!taken) throw invalidCode();
      const user = await this.users.find(taken.userId, tx);
      const provider = await this.providers.findById(taken.providerId, tx);
      if (!user || !provider) throw invalidCode();
      if (user.disabled) throw userDisabled();
      const membership = await this.members.find(taken.organizationId, user.id, tx);
      if (!membership || membership.disabled) throw membershipDisabled();
      const { token, expiresAt } = await this.issue(tx, provider, user.id);
      return { token, expiresAt, organizationId: taken.organizationId, user };
    });
  }

  /**
   * Where a valid response sends its person: the redirect URI of the sign-in it answers (null
   * for none). A response answering a request (node-saml has checked it is ours and unexpired)
   * must come with that request's RelayState; one answering none needs the provider's consent
   * to IdP-initiated sign-ins, and its RelayState, the identity provider's, is not ours.
   */
  private solicitation(
    provider: SamlProvider,
    inResponseTo: string | undefined,
    subjectInResponseTo: string[],
    relayState: string | undefined,
  ): string | null {
    if (!inResponseTo) {
      if (subjectInResponseTo.length > 0) {
        throw refused('the assertion answers a request, but the response does not say which.');
      }
      if (!provider.idpInitiatedLogin) {
        throw notAllowed(
          'SamlIdpInitiatedLoginDisabled',
          'This provider accepts only sign-ins started from Bindery (its start URL); sign-ins ' +
            'started at the identity provider are off (idpInitiatedLogin).',
        );
      }
      return null;
    }
    const verdict = this.relayStates.read(relayState);
    if (!verdict.valid) {
      throw refused(
        verdict.reason === 'expired'
          ? 'the sign-in took too long; start it again.'
          : 'its RelayState is missing or not the one this sign-in started with.',
      );
    }
    const { claims } = verdict;
    if (claims.providerId !== provider.id || claims.requestId !== inResponseTo) {
      throw refused('its RelayState is not the one this sign-in started with.');
    }
    if (
      claims.redirectUri &&
      !isAllowedRedirectUri(claims.redirectUri, this.config.ssoRedirectUrls)
    ) {
      throw invalidInput('redirect_uri is no longer allowed by SSO_REDIRECT_URLS.');
    }
    return claims.redirectUri;
  }

  /**
   * The person's user, created if new (no token of its own), and its membership: a new member
   * joins at the role of its pending email invitation (which this accepts) or else the
   * provider's default role, and the provider's default team; a member keeps its role. Marks
   * the membership `sso`.
   */
  private async admit(
    tx: EntityManager,
    provider: SamlProvider,
    email: string,
    attributes: Attributes,
  ): Promise<{ organization: Organization; user: User }> {
    const organization = await this.organizations.findById(provider.organizationId, tx);
    if (!organization) throw notFound('SAML provider');
    const domain = emailDomainOf(email);
    if (!organization.emailDomains.map((d) => d.toLowerCase()).includes(domain)) {
      throw notAllowed(
        'SamlEmailDomainNotAllowed',
        `${email} is not at one of this organization's email domains; an admin of the ` +
          'organization can add its domain (emailDomains).',
      );
    }
    const user =
      (await this.users.findByEmail(email, tx)) ??
      (await this.users.createWithoutToken(
        { email, displayName: displayNameOf(email, attributes) },
        tx,
      ));
    if (user.disabled) throw userDisabled();
    const membership = await this.members.lock(organization.id, user.id, tx);
    if (membership) {
      if (membership.disabled) throw membershipDisabled();
      if (!membership.sso) await this.members.update(organization.id, user.id, { sso: true }, tx);
      return { organization, user };
    }
    // A pending invitation of the address is accepted by signing in: its role, not the default.
    const invite = await this.emailInvites.takePending(tx, organization.id, email);
    const added = await this.members.addMembers(
      [
        {
          organizationId: organization.id,
          userId: user.id,
          role: invite ? invite.role : provider.defaultRole,
          sso: true,
          joinedAt: this.clock.now(),
        },
      ],
      tx,
    );
    if (added.length > 0) {
      if (provider.defaultTeamId) {
        await this.teams.addMemberIfAbsent(organization.id, provider.defaultTeamId, user.id, tx);
      }
      await this.memberEvents.record(
        tx,
        'member_added',
        organization.id,
        user.id,
        userActor(user.id),
      );
    }
    return { organization, user };
  }

  /** A token of the user reaching the provider's organization only, for SSO_SESSION_HOURS. */
  private async issue(
    tx: EntityManager,
    provider: SamlProvider,
    userId: string,
  ): Promise<{ token: string; expiresAt: Date }> {
    const expiresAt = new Date(
      this.clock.now().getTime() + this.config.SSO_SESSION_HOURS * 3_600_000,
    );
    const { token } = await this.tokens.issue(
      userId,
      {
        label: `SAML sign-in (${provider.label})`,
        expiresAt,
        scope: {
          access: 'read-write',
          organization: provider.organizationId,
          spaces: null,
          sites: null,
        },
      },
      tx,
    );
    return { token, expiresAt };
  }

  private async provider(samlProviderId: string): Promise<SamlProvider> {
    const provider = await this.providers.findById(samlProviderId);
    if (!provider) throw notFound('SAML provider');
    return provider;
  }

  private requireActive(provider: SamlProvider): SamlProvider {
    if (samlProviderStatus(provider) !== 'active') {
      throw new DomainError(
        'conflict',
        'SamlProviderPending',
        'This SAML provider is not set up yet: an admin of the organization must give its ' +
          "identity provider's entity ID, certificate and sign-in URL.",
      );
    }
    return provider;
  }

  /** node-saml for the provider: assertions signed by its certificate, for this provider. */
  private saml(provider: SamlProvider, requestId?: string): SAML {
    return new SAML({
      issuer: this.entityId(provider),
      audience: this.entityId(provider),
      callbackUrl: this.acsUrl(provider),
      entryPoint: provider.ssoUrl ?? undefined,
      idpCert: (provider.certificate ?? '').trim(),
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.ifPresent,
      requestIdExpirationPeriodMs: SAML_REQUEST_TTL_SECONDS * 1000,
      cacheProvider: new SamlRequestCache(
        this.repository,
        this.clock,
        provider.id,
        SAML_REQUEST_TTL_SECONDS * 1000,
      ),
      identifierFormat: EMAIL_NAME_ID_FORMAT,
      disableRequestedAuthnContext: true,
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
    });
  }

  private entityId(provider: SamlProvider): string {
    return this.urls.api('saml', provider.id);
  }

  private acsUrl(provider: SamlProvider): string {
    return this.urls.api('saml', provider.id, 'acs');
  }
}

const userDisabled = () =>
  forbidden('Your user is disabled on this Bindery instance; its administrator can enable it.');
const membershipDisabled = () =>
  forbidden('Your membership of this organization is disabled; an admin can enable it again.');

/** node-saml's reasons, in words for the person who sees them; others as they are. */
function explained(reason: string): string {
  if (/No valid subject confirmation|assertion expired|not yet valid/i.test(reason)) {
    return (
      'the assertion has expired or is not valid yet (its time conditions, with a clock skew ' +
      `of ${SAML_CLOCK_SKEW_MS / 1000} s). ${reason}`
    );
  }
  if (/InResponseTo is not valid/.test(reason)) {
    return `it answers no sign-in started here, or one already finished or expired. ${reason}`;
  }
  return reason;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Member } from '../../src/orgs/entities/member.entity';
import type { Role } from '../../src/platform/policy/roles';
import type {
  ChangeRequestBody,
  CollectionBody,
  CommentBody,
  OpenAPISpecBody,
  ShareLinkBody,
  SiteBody,
  SiteSectionBody,
  SiteSpaceBody,
  SpaceBody,
  TranslationBody,
} from './bodies';
import { Client } from './client';
import type { TestClock } from './clock';
import { expectConforms } from './conformance';

export interface TestUser {
  id: string;
  email: string;
  displayName: string;
  token: string;
  client: Client;
}

export interface TestOrganization {
  id: string;
  title: string;
  owner: TestUser;
}

/** Who makes the thing: the organization owner's client unless given. */
interface MadeBy {
  by?: Client;
}

/** The fields of `createSpace`, sent as given (an untitled space is 'Untitled'). */
export interface SpaceFields extends MadeBy {
  title?: string;
  emoji?: string;
  /** The collection it goes in; the organization root when absent. */
  parent?: string;
  language?: string;
  editMode?: string;
  template?: { id: string; params?: Record<string, unknown> };
  /** A first revision without the usual empty page. */
  empty?: true;
}

export interface CollectionFields extends MadeBy {
  title?: string;
  /** The collection it goes in; the organization root when absent. */
  parent?: string;
}

export interface SiteFields extends MadeBy {
  /** 'Docs' unless given. */
  title?: string;
  type?: string;
  visibility?: string;
  /** Spaces added as its first site spaces. */
  spaces?: string[];
}

/** The space a site space or section shows: `spaceId`, or a new space titled `spaceTitle`. */
interface SiteContent extends MadeBy {
  spaceId?: string;
  spaceTitle?: string;
}

export interface SiteSpaceFields extends SiteContent {
  /** The section it is a variant of, on a site with sections. */
  sectionId?: string;
}

export interface SiteSectionFields extends SiteContent {
  title?: string | null;
  icon?: string | null;
}

export interface ChangeRequestFields extends MadeBy {
  subject?: string;
  description?: object;
  /** 'draft' for a draft; open unless given. */
  status?: string;
  /** Written to the change request once it is open, as `updateChangeRequestContent` takes them. */
  changes?: object[];
  /** Merges the change request (with its changes) into the primary content. */
  merge?: true;
}

export interface CommentFields extends MadeBy {
  /** On this change request of the space (id or number) rather than on the space. */
  changeRequest?: string;
  body: { markdown?: string; document?: object };
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

/** Its source: the document's text, or the URL it is fetched from. */
export type OpenAPISpecFields = MadeBy & {
  /** `spec-<random>` unless given. */
  slug?: string;
} & ({ text: string } | { url: string });

export interface TranslationFields extends MadeBy {
  /** The space translated (from English). */
  space: string;
  /** The target language, French unless given. */
  language?: string;
  instructions?: object;
}

const unique = () => randomBytes(4).toString('hex');

/**
 * Builds test data through the API where it exists, so tests exercise real paths. The content
 * factories (spaces to translations) send the fields given, check the status and GitBook's
 * schema of the answer, and return its body.
 */
export class Factories {
  private oneSecondApart?: Factories;

  constructor(
    private readonly admin: Client,
    private readonly clientFor: (token: string) => Client,
    private readonly dataSource: DataSource,
    private readonly clock: TestClock,
    private readonly step = 0,
  ) {}

  /**
   * The same factories, but each of the content factories (spaces to translations) first moves
   * the test clock one second on: what a test makes in turn gets increasing timestamps, so lists
   * ordered by time come out in that order. The clock stands still from the first one on.
   */
  get later(): Factories {
    this.oneSecondApart ??= new Factories(
      this.admin,
      this.clientFor,
      this.dataSource,
      this.clock,
      1000,
    );
    return this.oneSecondApart;
  }

  async user(overrides: { email?: string; displayName?: string } = {}): Promise<TestUser> {
    const suffix = unique();
    const body = {
      email: overrides.email ?? `user-${suffix}@example.com`,
      displayName: overrides.displayName ?? `User ${suffix}`,
    };
    const response = await this.admin.post('/v1/admin/users', body).expect(201);
    const { user, token } = response.body as {
      user: { id: string; email: string; displayName: string };
      token: string;
    };
    return {
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      token,
      client: this.clientFor(token),
    };
  }

  /** A new organization whose owner (admin member) is a new user unless given. */
  async organization(
    options: { owner?: TestUser; title?: string } = {},
  ): Promise<TestOrganization> {
    const owner = options.owner ?? (await this.user());
    const title = options.title ?? `Org ${unique()}`;
    const response = await owner.client.post('/v1/orgs', { title }).expect(201);
    return { id: (response.body as { id: string }).id, title, owner };
  }

  /** A new user who is a member of the organization with `role` (null = guest). */
  async member(organization: TestOrganization, role: Role | null): Promise<TestUser> {
    const user = await this.user();
    await this.dataSource.getRepository(Member).insert({
      organizationId: organization.id,
      userId: user.id,
      role,
      sso: false,
      disabled: false,
      joinedAt: new Date(),
      lastSeenAt: null,
    });
    return user;
  }

  /** `asMember(org, 'read')`: a client acting as a new member with that role. */
  async asMember(organization: TestOrganization, role: Role | null): Promise<Client> {
    return (await this.member(organization, role)).client;
  }

  // -------------------------------------------------------------------------------------------
  // Content

  /** A space of the organization (at its root, or in the collection `parent`). */
  async space(org: TestOrganization, fields: SpaceFields = {}): Promise<SpaceBody> {
    this.tick();
    return this.createSpace(org, fields);
  }

  /** A collection of the organization (at its root, or in the collection `parent`). */
  async collection(org: TestOrganization, fields: CollectionFields = {}): Promise<CollectionBody> {
    this.tick();
    const { by = org.owner.client, ...body } = fields;
    const res = await by.post(`/v1/orgs/${org.id}/collections`, body).expect(201);
    expectConforms(res, 'createCollection');
    return res.body as CollectionBody;
  }

  /** An unpublished site of the organization, titled 'Docs' unless given. */
  async site(org: TestOrganization, fields: SiteFields = {}): Promise<SiteBody> {
    this.tick();
    const { by = org.owner.client, ...body } = fields;
    const res = await by.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', ...body }).expect(201);
    expectConforms(res, 'createSite');
    return res.body as SiteBody;
  }

  /** A site space of the site: its space at the site's root, or in the section `sectionId`. */
  async siteSpace(
    org: TestOrganization,
    siteId: string,
    fields: SiteSpaceFields,
  ): Promise<SiteSpaceBody> {
    this.tick();
    const { by = org.owner.client, spaceId, spaceTitle, sectionId } = fields;
    const res = await by
      .post(`/v1/orgs/${org.id}/sites/${siteId}/site-spaces`, {
        spaceId: spaceId ?? (await this.createSpace(org, { title: spaceTitle })).id,
        sectionId,
      })
      .expect(201);
    expectConforms(res, 'addSpaceToSite');
    return res.body as SiteSpaceBody;
  }

  /** A section of the site, at its root, whose one variant (site space) shows the space. */
  async siteSection(
    org: TestOrganization,
    siteId: string,
    fields: SiteSectionFields,
  ): Promise<SiteSectionBody> {
    this.tick();
    const { by = org.owner.client, spaceId, spaceTitle, ...body } = fields;
    const res = await by
      .post(`/v1/orgs/${org.id}/sites/${siteId}/sections`, {
        spaceId: spaceId ?? (await this.createSpace(org, { title: spaceTitle })).id,
        ...body,
      })
      .expect(201);
    expectConforms(res, 'addSectionToSite');
    return res.body as SiteSectionBody;
  }

  /** A share link of the site (active), named `name`. */
  async shareLink(
    org: TestOrganization,
    siteId: string,
    fields: { name: string } & MadeBy,
  ): Promise<ShareLinkBody> {
    this.tick();
    const { by = org.owner.client, ...body } = fields;
    const res = await by.post(`/v1/orgs/${org.id}/sites/${siteId}/share-links`, body).expect(201);
    expectConforms(res, 'createSiteShareLink');
    return res.body as ShareLinkBody;
  }

  /**
   * An open change request in the space, with `changes` written to it (see `insertPage` in
   * ./content) and, with `merge`, merged; returns it as it stands then.
   */
  async changeRequest(
    org: TestOrganization,
    spaceId: string,
    fields: ChangeRequestFields = {},
  ): Promise<ChangeRequestBody> {
    this.tick();
    const { by = org.owner.client, changes, merge, ...body } = fields;
    const path = `/v1/spaces/${spaceId}/change-requests`;
    const res = await by.post(path, body).expect(201);
    expectConforms(res, 'createChangeRequest');
    let changeRequest = res.body as ChangeRequestBody;
    if (changes) {
      const written = await by.post(`${path}/${changeRequest.id}/content`, { changes }).expect(200);
      changeRequest = written.body as ChangeRequestBody;
    }
    if (merge) {
      await by.post(`${path}/${changeRequest.id}/merge`, {}).expect(200);
      changeRequest = (await by.get(`${path}/${changeRequest.id}`).expect(200))
        .body as ChangeRequestBody;
    }
    return changeRequest;
  }

  /** A comment on the space's primary content, or on its change request `changeRequest`. */
  async comment(
    org: TestOrganization,
    spaceId: string,
    fields: CommentFields,
  ): Promise<CommentBody> {
    this.tick();
    const { by = org.owner.client, changeRequest, ...body } = fields;
    const base = changeRequest
      ? `/v1/spaces/${spaceId}/change-requests/${changeRequest}`
      : `/v1/spaces/${spaceId}`;
    const res = await by.post(`${base}/comments`, body).expect(201);
    // Created is 201 where GitBook's spec declares 200: the body is checked against that 200.
    expectConforms(
      { status: 200, body: res.body },
      changeRequest ? 'postCommentInChangeRequest' : 'postCommentInSpace',
    );
    return res.body as CommentBody;
  }

  /** An OpenAPI specification of the organization; its processing runs in the background. */
  async openAPISpec(org: TestOrganization, fields: OpenAPISpecFields): Promise<OpenAPISpecBody> {
    this.tick();
    const { by = org.owner.client, slug = `spec-${unique()}`, ...source } = fields;
    const res = await by.post(`/v1/orgs/${org.id}/openapi`, { slug, source }).expect(201);
    expectConforms(res, 'createOpenAPISpec');
    return res.body as OpenAPISpecBody;
  }

  /** A translation (pending, not run) of a space of the organization from English. */
  async translation(org: TestOrganization, fields: TranslationFields): Promise<TranslationBody> {
    this.tick();
    const { by = org.owner.client, space, language = 'fr', instructions } = fields;
    const res = await by
      .post(`/v1/orgs/${org.id}/translations`, {
        source: { space, language: 'en' },
        language,
        instructions,
      })
      .expect(201);
    expectConforms(res, 'createTranslation');
    return res.body as TranslationBody;
  }

  private tick(): void {
    if (this.step > 0) this.clock.advance(this.step);
  }

  /** createSpace, without moving the clock (also the space of a site space or section). */
  private async createSpace(org: TestOrganization, fields: SpaceFields): Promise<SpaceBody> {
    const { by = org.owner.client, ...body } = fields;
    const res = await by.post(`/v1/orgs/${org.id}/spaces`, body).expect(201);
    expectConforms(res, 'createSpace');
    return res.body as SpaceBody;
  }
}

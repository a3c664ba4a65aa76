import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { JSONDocument } from '../content-engine/documents/document';
import { markdownToDocument } from '../content-engine/documents/markdown';
import { resolveStableRefs } from '../content-engine/refs/markdown-refs';
import { ContentWriter, type ContentChange } from '../content-engine/writes/content-writer';
import { AppConfig } from '../platform/config/app-config';
import { newId } from '../platform/ids/ids';
import { OrganizationsService } from '../orgs/organizations.service';
import type { SpaceAccess } from '../spaces/space-access.resolver';
import { SpacesService } from '../spaces/spaces.service';
import { UsersService } from '../users/users.service';
import { demoPages } from './demo-content';
import { demoImagePng } from './demo-image';
import { DemoSeedRepository } from './demo-seed.repository';

export interface DemoSeedResult {
  userEmail: string;
  organizationId: string;
  /** The demo organization's first space, "Getting started". */
  spaceId: string;
  token: string;
}

/** The demo space's uploaded image, shown on its welcome page. */
export const DEMO_IMAGE_NAME = 'bindery.png';

/**
 * On an empty database, a demo user with an API token and a demo organization holding one
 * space with a few pages (a welcome page with an image, then change requests and publishing),
 * so that a first `npm start` can be tried with curl and the Swagger UI at once. All of it in
 * one transaction: a failed seed leaves nothing behind and is tried again next start.
 */
@Injectable()
export class DemoSeed {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly seeding: DemoSeedRepository,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly spaces: SpacesService,
    private readonly writer: ContentWriter,
  ) {}

  /** Seeds when no user exists yet; returns what it made, or undefined. */
  run(): Promise<DemoSeedResult | undefined> {
    return this.dataSource.transaction(async (manager) => {
      await this.seeding.lockSeeding(manager);
      if (await this.users.hasAny(manager)) return undefined;
      const { user, token } = await this.users.create(
        { email: 'demo@bindery.local', displayName: 'Demo User' },
        manager,
      );
      const organization = await this.organizations.create(
        user.id,
        { title: 'Demo Organization' },
        manager,
      );
      // Through the same use case as POST /orgs/{id}/spaces, as the organization's admin.
      const space = await this.spaces.create(
        organization,
        'admin',
        user.id,
        { title: 'Getting started', empty: true },
        manager,
      );
      await this.writeContent(manager, space, user.id);
      return {
        userEmail: user.email,
        organizationId: organization.id,
        spaceId: space.id,
        token,
      };
    });
  }

  /** The demo pages and their image, as one revision on the new space's primary. */
  private async writeContent(
    manager: EntityManager,
    space: SpaceAccess,
    authorId: string,
  ): Promise<void> {
    const image = await this.writer.storeFile(manager, {
      name: DEMO_IMAGE_NAME,
      contentType: 'image/png',
      data: demoImagePng(),
    });
    const pages = demoPages({
      spaceId: space.id,
      organizationId: space.entity.organizationId,
      welcomePage: newId(),
      changeRequestsPage: newId(),
      publishingPage: newId(),
      imageFile: image.file.id,
      publicUrl: this.config.publicUrl,
    });
    const changes: ContentChange[] = [{ operation: 'insert_file', file: image.hash }];
    for (const page of pages) {
      changes.push({
        operation: 'insert_page',
        id: page.id,
        meta: { title: page.title, description: page.description },
        document: await documentOf(page.markdown),
      });
    }
    await this.writer.commitOnPrimary(manager, {
      spaceId: space.id,
      expectedRevisionId: space.entity.revisionId,
      authorId,
      type: 'edits',
      changes,
    });
  }
}

/** Markdown whose `/pages/<id>` and `/files/<id>` links become refs to those pages and files. */
async function documentOf(markdown: string): Promise<JSONDocument> {
  return resolveStableRefs(await markdownToDocument(markdown));
}

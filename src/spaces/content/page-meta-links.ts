import { Injectable } from '@nestjs/common';
import { ContentReader, type ReadRevision } from '../../content-engine/reads/content-reader';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/errors/domain-error';
import { PolicyService } from '../../platform/policy/policy.service';
import type { SpaceAccess } from '../space-access.resolver';
import type { ContentRefPageResponse, RevisionPageMetaLinksResponse } from './dto/content.response';
import { TranslatedSpaces } from './translated-spaces';

/**
 * A page's meta links (`listRevisionPageMetaLinks`), which a renderer turns into
 * `<link rel="canonical">` and `<link rel="alternate" hreflang>`. Bindery keeps no canonical
 * links. Alternates are the same page in the spaces that hold the space's pages in other
 * languages (its translations, or its source and the source's other translations): only where
 * that space's primary content has a page with the same id (translations keep page ids), and
 * only spaces the caller may see, so an answer reveals no space the caller could not read.
 * When there is any, the page itself comes first, as hreflang links list every version.
 */
@Injectable()
export class PageMetaLinks {
  constructor(
    private readonly reader: ContentReader,
    private readonly translatedSpaces: TranslatedSpaces,
    private readonly policy: PolicyService,
  ) {}

  /**
   * The meta links of `pageId` in `read` (a revision of `space`); 404 for an unknown page, and
   * for one a site's visitor does not see, as its page reads answer.
   */
  async of(
    actor: Actor,
    space: SpaceAccess,
    read: ReadRevision,
    pageId: string,
  ): Promise<RevisionPageMetaLinksResponse> {
    if (!(await this.reader.hasPage(read, pageId, space.visitor))) throw notFound('Page');
    const related = await this.translatedSpaces.of(space.id);
    const found = await Promise.all(related.map((spaceId) => this.hasPage(actor, spaceId, pageId)));
    const alternates = related.filter((_, i) => found[i]);
    if (alternates.length === 0) return {};
    return { alternates: [space.id, ...alternates].map((id) => pageRef(pageId, id)) };
  }

  /** Whether the caller sees `spaceId` and its primary content has the page. */
  private async hasPage(actor: Actor, spaceId: string, pageId: string): Promise<boolean> {
    // Other callers (site readers) see no other space here yet.
    if (actor.kind !== 'user') return false;
    const access = (await this.policy.resolve(
      actor.userId,
      'space',
      spaceId,
    )) as SpaceAccess | null;
    if (!access) return false;
    const read = await this.reader.readRevision(spaceId, access.entity.revisionId);
    return this.reader.hasPage(read, pageId);
  }
}

function pageRef(page: string, space: string): ContentRefPageResponse {
  return { kind: 'page', page, space };
}

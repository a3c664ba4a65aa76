import { Injectable } from '@nestjs/common';
import type { SiteRedirectResponse } from './dto/site-redirect.response';
import type { SiteRedirect } from './entities/site-redirect.entity';

/** GitBook's `SiteRedirect`. */
@Injectable()
export class SiteRedirectsPresenter {
  present(redirect: SiteRedirect): SiteRedirectResponse {
    return {
      object: 'site-redirect',
      id: redirect.id,
      source: redirect.source,
      draft: redirect.draft,
      captureWildcard: redirect.captureWildcard,
      permanent: redirect.permanent,
      destination: { ...redirect.destination },
      createdAt: redirect.createdAt.toISOString(),
      ...(redirect.updatedAt !== null ? { updatedAt: redirect.updatedAt.toISOString() } : {}),
    };
  }
}

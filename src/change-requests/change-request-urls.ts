import type { UrlBuilder } from '../platform/urls/url-builder';
import type { ChangeRequest } from './entities/change-request.entity';

/** The change request in the app (`urls.app`): linked from its API body and from emails. */
export function changeRequestAppUrl(
  urls: UrlBuilder,
  changeRequest: Pick<ChangeRequest, 'organizationId' | 'spaceId' | 'number'>,
): string {
  const { organizationId, spaceId, number } = changeRequest;
  return urls.app('o', organizationId, 's', spaceId, '~', 'changes', String(number));
}

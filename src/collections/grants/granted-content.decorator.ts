import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { ContentResource } from './content-grants.service';

/**
 * The collection, space or site of an `@Access('collection' | 'space' | 'site', ...)` route, as the
 * ContentResource whose grants ContentGrantsService reads and writes.
 */
export const GrantedContent = createParamDecorator(
  (_: unknown, context: ExecutionContext): ContentResource => {
    const granted = context.switchToHttp().getRequest<{ granted?: ResolvedAccess }>().granted;
    const type = granted?.resource;
    if (type !== 'collection' && type !== 'space' && type !== 'site') {
      throw new Error(
        'GrantedContent used on a route without a collection, space or site requirement',
      );
    }
    return {
      resourceType: type,
      id: granted!.id,
      organizationId: granted!.organizationId,
    };
  },
);

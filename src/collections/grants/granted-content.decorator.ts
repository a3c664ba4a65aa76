import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { ContentResource } from './content-grants.service';

/**
 * The collection or space of an `@Access('collection' | 'space', ...)` route, as the
 * ContentResource whose grants ContentGrantsService reads and writes.
 */
export const GrantedContent = createParamDecorator(
  (_: unknown, context: ExecutionContext): ContentResource => {
    const granted = context.switchToHttp().getRequest<{ granted?: ResolvedAccess }>().granted;
    if (granted?.resource !== 'collection' && granted?.resource !== 'space') {
      throw new Error('GrantedContent used on a route without a collection or space requirement');
    }
    return {
      resourceType: granted.resource,
      id: granted.id,
      organizationId: granted.organizationId,
    };
  },
);

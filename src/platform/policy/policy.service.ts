import { Injectable } from '@nestjs/common';
import type { ResolvedAccess, ResourceType } from './access';

/** Answers "what is this user's effective role on this resource?" for one resource type. */
export interface AccessResolver {
  /** The caller's access, or null when the resource does not exist or the caller may not see it. */
  resolve(userId: string, resourceId: string): Promise<ResolvedAccess | null>;
}

/**
 * The one place that decides access. Each domain module registers the resolver of its
 * resource type at start; guards and presenters ask here and nowhere else.
 */
@Injectable()
export class PolicyService {
  private readonly resolvers = new Map<ResourceType, AccessResolver>();
  private readonly nouns = new Map<ResourceType, string>();

  /**
   * `noun` names the resource in error messages when the type's name would not (a type such
   * as `spaceIncludingDeleted` is still a "space").
   */
  register(resource: ResourceType, resolver: AccessResolver, noun: string = resource): void {
    if (this.resolvers.has(resource))
      throw new Error(`Access resolver for ${resource} registered twice`);
    this.resolvers.set(resource, resolver);
    this.nouns.set(resource, noun);
  }

  /** What error messages call a resource of this type ("space"). */
  noun(resource: ResourceType): string {
    return this.nouns.get(resource) ?? resource;
  }

  resolve(
    userId: string,
    resource: ResourceType,
    resourceId: string,
  ): Promise<ResolvedAccess | null> {
    const resolver = this.resolvers.get(resource);
    if (!resolver) throw new Error(`No access resolver registered for ${resource}`);
    return resolver.resolve(userId, resourceId);
  }

  registered(): ResourceType[] {
    return [...this.resolvers.keys()];
  }
}

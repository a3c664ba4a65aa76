import { Injectable } from '@nestjs/common';
import { SpacesPresenter } from '../../spaces/spaces.presenter';
import { SitesPresenter } from '../sites.presenter';
import {
  SiteExternalLinkResponse,
  SiteSectionGroupResponse,
  SiteSectionResponse,
  SiteSpaceResponse,
  SiteStructureResponse,
  SiteStructureUrlsResponse,
} from './dto/site-structure.response';
import type { SiteExternalLink } from './entities/site-external-link.entity';
import type { SiteSection } from './entities/site-section.entity';
import type { SiteSectionGroup } from './entities/site-section-group.entity';
import type { SiteSpace } from './entities/site-space.entity';
import {
  siteExternalLinkNotFound,
  siteSectionGroupNotFound,
  siteSectionNotFound,
  siteSpaceNotFound,
  type StructureView,
} from './site-structure.store';
import type { StructureItemRef } from './structure-model';

/**
 * GitBook's `SiteSpace`, `SiteSection`, `SiteSectionGroup`, `SiteExternalLink` and
 * `SiteStructure`.
 */
@Injectable()
export class SiteStructurePresenter {
  constructor(
    private readonly spaces: SpacesPresenter,
    private readonly sites: SitesPresenter,
  ) {}

  structure(view: StructureView): SiteStructureResponse {
    const { model } = view;
    if (!model.hasSections()) {
      return {
        type: 'siteSpaces',
        structure: model.siteSpacesOf(null).map((siteSpace) => this.siteSpace(view, siteSpace)),
      };
    }
    return { type: 'sections', structure: this.children(view, null) };
  }

  /**
   * GitBook's `SiteStructureItem`: the site space, section or group `ref` names (404 when a
   * concurrent request deleted it since).
   */
  item(
    view: StructureView,
    ref: StructureItemRef,
  ): SiteSpaceResponse | SiteSectionResponse | SiteSectionGroupResponse | SiteExternalLinkResponse {
    const { model } = view;
    switch (ref.type) {
      case 'site-space': {
        const siteSpace = model.siteSpace(ref.id);
        if (!siteSpace) throw siteSpaceNotFound();
        return this.siteSpace(view, siteSpace);
      }
      case 'site-section': {
        const section = model.section(ref.id);
        if (!section) throw siteSectionNotFound();
        return this.section(view, section);
      }
      case 'site-section-group': {
        const group = model.group(ref.id);
        if (!group) throw siteSectionGroupNotFound();
        return this.group(view, group);
      }
      case 'site-external-link': {
        const link = model.externalLink(ref.id);
        if (!link) throw siteExternalLinkNotFound();
        return this.externalLink(link);
      }
    }
  }

  externalLink(link: SiteExternalLink): SiteExternalLinkResponse {
    return {
      object: 'site-external-link',
      id: link.id,
      title: link.title,
      ...(link.localizedTitle !== null ? { localizedTitle: link.localizedTitle } : {}),
      ...(link.description !== null ? { description: link.description } : {}),
      ...(link.localizedDescription !== null
        ? { localizedDescription: link.localizedDescription }
        : {}),
      ...(link.icon !== null ? { icon: link.icon } : {}),
      url: link.url,
      ...(link.sectionGroupId !== null ? { sectionGroup: link.sectionGroupId } : {}),
      draft: link.draft,
      ...(link.condition !== null ? { condition: link.condition } : {}),
    };
  }

  siteSpace(view: StructureView, siteSpace: SiteSpace): SiteSpaceResponse {
    const { space, role } = view.spaces.get(siteSpace.spaceId) ?? {};
    if (!space)
      throw new Error(`Space ${siteSpace.spaceId} of site space ${siteSpace.id} not loaded`);
    const section = siteSpace.sectionId === null ? null : view.model.section(siteSpace.sectionId);
    const isDefault = view.model.isDefaultSiteSpace(siteSpace);
    return {
      object: 'site-space',
      id: siteSpace.id,
      path: siteSpace.path,
      ...(siteSpace.sectionId !== null ? { section: siteSpace.sectionId } : {}),
      space: this.spaces.present(space, role ?? null),
      title: this.siteSpaceTitle(view, siteSpace) ?? space.title,
      default: isDefault,
      // Bindery has no draft site spaces, sections or groups: all of them are live.
      draft: false,
      ...(siteSpace.condition !== null ? { condition: siteSpace.condition } : {}),
      urls: this.urls(view, [
        section && !this.isDefaultSection(view, section) ? section.path : null,
        isDefault ? null : siteSpace.path,
      ]),
    };
  }

  section(view: StructureView, section: SiteSection): SiteSectionResponse {
    const isDefault = this.isDefaultSection(view, section);
    return {
      object: 'site-section',
      id: section.id,
      title: section.title,
      ...(section.description !== null ? { description: section.description } : {}),
      default: isDefault,
      draft: false,
      path: section.path,
      ...(section.condition !== null ? { condition: section.condition } : {}),
      ...(section.sectionGroupId !== null ? { sectionGroup: section.sectionGroupId } : {}),
      siteSpaces: view.model
        .siteSpacesOf(section.id)
        .map((siteSpace) => this.siteSpace(view, siteSpace)),
      urls: this.urls(view, [isDefault ? null : section.path]),
      ...(section.icon !== null ? { icon: section.icon } : {}),
    };
  }

  group(view: StructureView, group: SiteSectionGroup): SiteSectionGroupResponse {
    return {
      object: 'site-section-group',
      id: group.id,
      title: group.title,
      draft: false,
      sections: view.model.sectionsIn(group.id).map((section) => this.section(view, section)),
      ...(group.parentId !== null ? { sectionGroup: group.parentId } : {}),
      children: this.children(view, group.id),
      ...(group.icon !== null ? { icon: group.icon } : {}),
    };
  }

  private children(
    view: StructureView,
    groupId: string | null,
  ): (SiteSectionResponse | SiteSectionGroupResponse | SiteExternalLinkResponse)[] {
    return view.model
      .children(groupId)
      .map((child) =>
        child.type === 'site-section'
          ? this.section(view, child.section)
          : child.type === 'site-section-group'
            ? this.group(view, child.group)
            : this.externalLink(child.link),
      );
  }

  /** The variant's title from its customization (`overrideSiteSpaceCustomizationById`), if any. */
  private siteSpaceTitle(view: StructureView, siteSpace: SiteSpace): string | undefined {
    const title = view.model.site.siteSpaceCustomizations?.[siteSpace.id]?.title;
    return typeof title === 'string' ? title : undefined;
  }

  private isDefaultSection(view: StructureView, section: SiteSection): boolean {
    return view.model.defaultSectionId() === section.id;
  }

  /**
   * A published URL, while the site is published: the site's, then the path of each level
   * that is not its level's default (the default section and variant are served at the
   * site's own URL, as GitBook does).
   */
  private urls(view: StructureView, segments: (string | null)[]): SiteStructureUrlsResponse {
    const site = view.model.site;
    if (!site.published) return {};
    const base = this.sites.publishedUrl(site, view.organization);
    const path = segments
      .filter((segment): segment is string => segment !== null)
      .map(encodeURIComponent)
      .join('/');
    return { published: path ? `${base}/${path}` : base };
  }
}

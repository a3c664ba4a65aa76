import { meetsCondition, type VisitorClaims } from '../../platform/conditions/evaluate';
import { StructureModel } from '../structure/structure-model';

/**
 * The structure of a site as one visitor sees it: the site spaces and sections whose condition
 * the visitor meets, whose space is live (`liveSpaceIds`), and, for a section, that keep at
 * least one such site space; the external links that are not drafts (unless `drafts`: a
 * member's preview) and whose condition the visitor meets; groups left without sections or links go too. A default that is hidden
 * falls back to the first visible item (StructureModel's own fallback), so what is absent for a
 * visitor is absent everywhere: in the lookup, the published structure, search and reads.
 */
export function visibleStructure(
  model: StructureModel,
  visitor: VisitorClaims,
  liveSpaceIds: ReadonlySet<string>,
  options: { drafts?: boolean } = {},
): StructureModel {
  const sections = model.sections.filter((section) => meetsCondition(section.condition, visitor));
  const sectionIds = new Set(sections.map((section) => section.id));
  const siteSpaces = model.siteSpaces.filter(
    (siteSpace) =>
      liveSpaceIds.has(siteSpace.spaceId) &&
      (siteSpace.sectionId === null || sectionIds.has(siteSpace.sectionId)) &&
      meetsCondition(siteSpace.condition, visitor),
  );
  const withVariants = new Set(siteSpaces.map((siteSpace) => siteSpace.sectionId));
  const visibleSections = sections.filter((section) => withVariants.has(section.id));
  const links = (options.drafts ? model.externalLinks : liveLinks(model)).filter((link) =>
    meetsCondition(link.condition, visitor),
  );
  const groups = model.groups.filter((group) =>
    keepsSections(model, group.id, [...visibleSections, ...links]),
  );
  // Links live only in a site with sections, among them (addExternalLinkToSite).
  const shown = visibleSections.length > 0 ? links : [];
  return new StructureModel(model.site, groups, visibleSections, siteSpaces, shown);
}

/**
 * The structure without its draft external links, as the published site shows it to a member
 * (who sees every section and site space, whatever their conditions).
 */
export function withoutDraftLinks(model: StructureModel): StructureModel {
  return new StructureModel(
    model.site,
    model.groups,
    model.sections,
    model.siteSpaces,
    liveLinks(model),
  );
}

const liveLinks = (model: StructureModel) => model.externalLinks.filter((link) => !link.draft);

/** Whether a group holds, at any depth, one of `sections` (or links). */
function keepsSections(
  model: StructureModel,
  groupId: string,
  sections: { sectionGroupId: string | null }[],
): boolean {
  const nested = new Set([groupId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const group of model.groups) {
      if (group.parentId !== null && nested.has(group.parentId) && !nested.has(group.id)) {
        nested.add(group.id);
        grew = true;
      }
    }
  }
  return sections.some(
    (section) => section.sectionGroupId !== null && nested.has(section.sectionGroupId),
  );
}

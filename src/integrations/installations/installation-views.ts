import type { Organization } from '../../orgs/entities/organization.entity';
import type { Role } from '../../platform/policy/roles';
import type { SiteWithCount } from '../../sites/sites.service';
import type { Space } from '../../spaces/entities/space.entity';
import type { Integration } from '../entities/integration.entity';
import type { IntegrationView } from '../integrations.service';
import type { IntegrationInstallation } from './entities/integration-installation.entity';
import type { ContentKind } from './installations.repository';
import { contentInstallationStatus } from './installation-configuration';
import type { InstallationStatus } from './entities/integration-installation.entity';
import { IntegrationSiteInstallation } from './entities/integration-site-installation.entity';
import { IntegrationSpaceInstallation } from './entities/integration-space-installation.entity';
import type { ContentInstallation } from './installations.repository';

/** An organization's installation with its integration and how many spaces it is on. */
export interface InstallationView {
  integration: Integration;
  installation: IntegrationInstallation;
  spaces: number;
}

/**
 * A space or site installation, its installation and integration; with `extended`, its space
 * (and the caller's role on it) or its site (with its organization and the caller's role).
 */
export interface ContentInstallationView {
  kind: ContentKind;
  integration: Integration;
  installation: IntegrationInstallation;
  row: ContentInstallation;
  space?: { space: Space; role: Role | null };
  site?: { site: SiteWithCount; organization: Organization; role: Role | null };
}

/** GitBook's `InstalledIntegration`, before presenting. */
export interface InstalledIntegrationView {
  status: InstallationStatus;
  integration: IntegrationView;
  target:
    | { type: 'organization'; organizationId: string }
    | { type: 'space'; spaceId: string }
    | { type: 'site'; siteId: string };
}

/** An active site installation that injects a script in the site's pages. */
export interface SiteScriptView {
  integration: Integration;
  installation: IntegrationInstallation;
  siteId: string;
}

/** The space or site a space or site installation is on. */
export function contentIdOf(row: ContentInstallation): string {
  return row instanceof IntegrationSpaceInstallation || 'spaceId' in row
    ? (row as IntegrationSpaceInstallation).spaceId
    : (row as IntegrationSiteInstallation).siteId;
}

/** A space or site installation's status, from its installation's and its own configuration. */
export function statusOf(
  view: Pick<ContentInstallationView, 'kind' | 'integration' | 'installation' | 'row'>,
): InstallationStatus {
  return contentInstallationStatus(
    view.integration,
    view.kind,
    view.installation.configuration,
    view.row.configuration,
  );
}

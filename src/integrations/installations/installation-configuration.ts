import { invalidInput } from '../../platform/errors/domain-error';
import type { Integration } from '../entities/integration.entity';
import type { InstallationStatus } from './entities/integration-installation.entity';

/** Where a configuration applies: the organization's installation, a space's or a site's. */
export type ConfigurationLevel = 'account' | 'space' | 'site';

interface PropertySchema {
  type?: string;
  enum?: unknown[];
}

interface ConfigurationSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
  componentId?: string;
}

function schemaOf(integration: Integration, level: ConfigurationLevel): ConfigurationSchema | null {
  const schema = integration.configurations[level];
  return schema && typeof schema === 'object' ? (schema as ConfigurationSchema) : null;
}

/**
 * Checks a configuration against the integration's schema for `level`
 * (`configurations.account`, `.space`, `.site`), as GitBook's settings form fills it: every key
 * is a property of the schema, of its `type` (a string of its `enum` if it has one; a `button`
 * holds no value). A schema drawn by a component (`componentId`) is the integration's own: any
 * object passes. An integration without a schema for the level takes an empty configuration
 * only. Required properties may be missing: the installation is `pending` until they are given
 * (configurationStatus). 400 otherwise, naming the property.
 */
export function validateConfiguration(
  integration: Integration,
  level: ConfigurationLevel,
  configuration: Record<string, unknown>,
): void {
  const schema = schemaOf(integration, level);
  const keys = Object.keys(configuration);
  if (!schema) {
    if (keys.length > 0) {
      throw invalidInput(
        `configuration: ${integration.name} has no ${level} configuration; send an empty object.`,
      );
    }
    return;
  }
  if (schema.componentId !== undefined) return;
  const properties = schema.properties ?? {};
  for (const key of keys) {
    const property = Object.prototype.hasOwnProperty.call(properties, key)
      ? properties[key]
      : undefined;
    if (!property) {
      throw invalidInput(
        `configuration.${key} is not a property of ${integration.name}'s ${level} configuration.`,
      );
    }
    const value = configuration[key];
    if (value === null) continue;
    const fail = (what: string) => invalidInput(`configuration.${key} must be ${what}.`);
    switch (property.type) {
      case 'string':
        if (typeof value !== 'string') throw fail('a string');
        if (Array.isArray(property.enum) && !property.enum.includes(value)) {
          throw fail(`one of ${property.enum.map(String).join(', ')}`);
        }
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
        break;
      case 'boolean':
        if (typeof value !== 'boolean') throw fail('a boolean');
        break;
      default:
        throw invalidInput(
          `configuration.${key} is a ${property.type ?? 'button'}: it holds no value.`,
        );
    }
  }
}

/**
 * `active` when every property the integration's schema for `level` requires is given (not null,
 * not an empty string), `pending` otherwise. A component's configuration has no required
 * properties Bindery knows of. Bindery never pauses an installation (GitBook pauses them for
 * billing): `paused` is not answered.
 */
export function configurationStatus(
  integration: Integration,
  level: ConfigurationLevel,
  configuration: Record<string, unknown>,
): InstallationStatus {
  const required = schemaOf(integration, level)?.required ?? [];
  const missing = required.some((key) => {
    const value = configuration[key];
    return value === undefined || value === null || value === '';
  });
  return missing ? 'pending' : 'active';
}

/** A space or site installation is active when its installation is and its own configuration is complete. */
export function contentInstallationStatus(
  integration: Integration,
  level: 'space' | 'site',
  installationConfiguration: Record<string, unknown>,
  configuration: Record<string, unknown>,
): InstallationStatus {
  return configurationStatus(integration, 'account', installationConfiguration) === 'active'
    ? configurationStatus(integration, level, configuration)
    : 'pending';
}

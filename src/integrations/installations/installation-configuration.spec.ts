import type { Integration } from '../entities/integration.entity';
import {
  configurationStatus,
  contentInstallationStatus,
  validateConfiguration,
} from './installation-configuration';

const integration = {
  name: 'probe',
  configurations: {
    account: {
      properties: {
        api_key: { type: 'string' },
        region: { type: 'string', enum: ['eu', 'us'] },
        retries: { type: 'number' },
        verbose: { type: 'boolean' },
        connect: { type: 'button' },
      },
      required: ['api_key'],
    },
    space: { componentId: 'space-config' },
  },
} as unknown as Integration;

describe('installation configurations', () => {
  it.each([
    [{ api_key: 'k', region: 'eu', retries: 2, verbose: false }],
    [{}],
    [{ api_key: null }],
  ])('accepts %j against the account schema', (configuration) => {
    expect(() => validateConfiguration(integration, 'account', configuration)).not.toThrow();
  });

  it.each([
    [{ colour: 'red' }, 'configuration.colour is not a property'],
    [{ api_key: 3 }, 'configuration.api_key must be a string'],
    [{ region: 'mars' }, 'configuration.region must be one of eu, us'],
    [{ retries: '2' }, 'configuration.retries must be a number'],
    [{ verbose: 'yes' }, 'configuration.verbose must be a boolean'],
    [{ connect: true }, 'it holds no value'],
    [{ toString: 'x' }, 'configuration.toString is not a property'],
  ])('refuses %j', (configuration, message) => {
    expect(() => validateConfiguration(integration, 'account', configuration)).toThrow(message);
  });

  it('accepts any object where a component draws the schema, and nothing where there is none', () => {
    expect(() => validateConfiguration(integration, 'space', { any: { thing: 1 } })).not.toThrow();
    expect(() => validateConfiguration(integration, 'site', {})).not.toThrow();
    expect(() => validateConfiguration(integration, 'site', { a: 1 })).toThrow(
      'probe has no site configuration',
    );
  });

  it('is active once every required property is given', () => {
    expect(configurationStatus(integration, 'account', {})).toBe('pending');
    expect(configurationStatus(integration, 'account', { api_key: '' })).toBe('pending');
    expect(configurationStatus(integration, 'account', { api_key: 'k' })).toBe('active');
    expect(configurationStatus(integration, 'space', {})).toBe('active');
  });

  it('makes a space or site installation pending while its installation is', () => {
    expect(contentInstallationStatus(integration, 'space', {}, {})).toBe('pending');
    expect(contentInstallationStatus(integration, 'space', { api_key: 'k' }, {})).toBe('active');
  });
});

import { conditionProblem } from '../../platform/conditions/condition';
import {
  adaptiveSchemaProblem,
  DRAFT_07,
  normaliseAdaptiveSchema,
  templateConditions,
  UNSIGNED_DESCRIPTION,
} from './adaptive-schema';

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...extra,
});

const VALID = schema(
  {
    isBeta: { type: 'boolean', description: 'Beta tester' },
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
    'feature-flag': { type: 'boolean', description: 'Flag' },
    email: { type: 'string', description: 'Email' },
    seats: { type: 'number', description: 'Seats' },
    products: {
      type: 'array',
      description: 'Products',
      items: { type: 'string', enum: ['api', 'cli'], description: 'Product' },
    },
    company: {
      type: 'object',
      description: 'Company',
      properties: { isPartner: { type: 'boolean', description: 'Partner' } },
      additionalProperties: false,
    },
    unsigned: {
      type: 'object',
      description: UNSIGNED_DESCRIPTION,
      properties: { prefersDark: { type: 'boolean', description: 'Dark mode' } },
      additionalProperties: false,
    },
  },
  { $schema: DRAFT_07 },
);

describe('adaptiveSchemaProblem', () => {
  it('accepts the shapes GitBook accepts', () => {
    expect(adaptiveSchemaProblem(VALID)).toBeNull();
    expect(adaptiveSchemaProblem(schema({}))).toBeNull();
  });

  it.each([
    ['a non-object', [], /jsonSchema must be an object/],
    [
      'another draft',
      { ...VALID, $schema: 'https://json-schema.org/draft/2020-12/schema' },
      /draft-07/,
    ],
    [
      'a root that is not an object type',
      { ...VALID, type: 'array' },
      /jsonSchema.type must be "object"/,
    ],
    [
      'open root',
      { ...VALID, additionalProperties: true },
      /jsonSchema.additionalProperties must be false/,
    ],
    [
      'unknown root keyword',
      { ...VALID, required: ['isBeta'] },
      /jsonSchema.required is not allowed/,
    ],
    [
      'missing properties',
      { type: 'object', additionalProperties: false },
      /jsonSchema.properties must be an object/,
    ],
    [
      'a claim without description',
      schema({ isBeta: { type: 'boolean' } }),
      /properties.isBeta.description is required/,
    ],
    [
      'a claim of unknown type',
      schema({ x: { type: 'integer', description: 'x' } }),
      /properties.x.type must be one of/,
    ],
    [
      'an extra keyword on a claim',
      schema({ x: { type: 'boolean', description: 'x', default: true } }),
      /properties.x.default is not allowed/,
    ],
    [
      'an empty enum',
      schema({ x: { type: 'string', enum: [], description: 'x' } }),
      /properties.x.enum must be 1 to/,
    ],
    [
      'a non-string enum',
      schema({ x: { type: 'string', enum: [1], description: 'x' } }),
      /enum must be 1 to/,
    ],
    [
      'an array of objects',
      schema({
        x: { type: 'array', description: 'x', items: { type: 'object', description: 'o' } },
      }),
      /items must be a boolean, string or number/,
    ],
    [
      'an open nested object',
      schema({
        x: { type: 'object', description: 'x', properties: {}, additionalProperties: true },
      }),
      /properties.x.additionalProperties must be false/,
    ],
    [
      'a wrong unsigned description',
      schema({
        unsigned: {
          type: 'object',
          description: 'Other',
          properties: {},
          additionalProperties: false,
        },
      }),
      /unsigned.description must be/,
    ],
  ])('refuses %s', (_, value, message) => {
    expect(adaptiveSchemaProblem(value)).toMatch(message);
  });

  it('refuses nesting past the limit', () => {
    let claim: Record<string, unknown> = { type: 'boolean', description: 'leaf' };
    for (let i = 0; i < 6; i++) {
      claim = {
        type: 'object',
        description: 'level',
        properties: { x: claim },
        additionalProperties: false,
      };
    }
    expect(adaptiveSchemaProblem(schema({ x: claim }))).toMatch(/nest at most/);
  });

  it('gives `unsigned` its fixed description when it has none', () => {
    const stored = normaliseAdaptiveSchema(
      schema({ unsigned: { type: 'object', properties: {}, additionalProperties: false } }),
    );
    expect((stored.properties as { unsigned: { description: string } }).unsigned.description).toBe(
      UNSIGNED_DESCRIPTION,
    );
  });
});

describe('templateConditions', () => {
  it('suggests one condition per boolean claim and per enum value, nested ones included', () => {
    expect(templateConditions(VALID)).toEqual([
      { description: 'Beta tester', condition: 'visitor.claims.isBeta === true' },
      { description: 'Plan: free', condition: 'visitor.claims.plan === "free"' },
      { description: 'Plan: pro', condition: 'visitor.claims.plan === "pro"' },
      { description: 'Flag', condition: 'visitor.claims["feature-flag"] === true' },
      {
        description: 'Products: includes api',
        condition: 'visitor.claims.products.includes("api")',
      },
      {
        description: 'Products: includes cli',
        condition: 'visitor.claims.products.includes("cli")',
      },
      { description: 'Partner', condition: 'visitor.claims.company.isPartner === true' },
      { description: 'Dark mode', condition: 'visitor.claims.unsigned.prefersDark === true' },
    ]);
  });

  it('suggests only valid conditions', () => {
    for (const { condition } of templateConditions(VALID)) {
      expect(conditionProblem(condition)).toBeNull();
    }
  });
});

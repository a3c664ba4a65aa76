import Ajv from 'ajv';

/**
 * The adaptive-content visitor schema of a site: a draft-07 JSON Schema describing the claims
 * a visitor's token carries, in the shape GitBook accepts (`SiteAdaptiveJSONSchema`):
 *
 *   { $schema?: draft-07, type: "object", additionalProperties: false, properties: {
 *       <claim>: Claim, …,
 *       unsigned?: { type: "object", description: UNSIGNED_DESCRIPTION,
 *                    properties: { <claim>: Claim, … }, additionalProperties: false } } }
 *
 * where a Claim is `{type: "boolean"|"number"|"string", description}`, a string `enum`, an
 * `array` of those (`items`), or a nested `object` of claims (`properties`,
 * `additionalProperties: false`), always with a `description`.
 */

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
export const UNSIGNED_DESCRIPTION = 'Unsigned claims of the site visitor.';

/** Enough for any real visitor; keeps template conditions and evaluation small. */
export const MAX_CLAIMS = 200;
export const MAX_DEPTH = 5;
const MAX_CLAIM_NAME = 64;
const MAX_ENUM_VALUES = 100;

type Json = Record<string, unknown>;

const ajv = new Ajv({ allErrors: false, validateSchema: false });

class SchemaProblem extends Error {}

/** Why `jsonSchema` is not an acceptable visitor schema, or null when it is one. */
export function adaptiveSchemaProblem(jsonSchema: unknown): string | null {
  try {
    checkRoot(jsonSchema, 'jsonSchema');
  } catch (error) {
    if (error instanceof SchemaProblem) return error.message;
    throw error;
  }
  // The structure holds; ajv checks it is a valid draft-07 schema as well (types, enums).
  if (!ajv.validateSchema(jsonSchema as Json)) {
    const first = ajv.errors?.[0];
    const where = first?.instancePath
      ? `jsonSchema${first.instancePath.replace(/\//g, '.')}`
      : 'jsonSchema';
    return `${where} is not a valid draft-07 JSON Schema: ${first?.message ?? 'invalid'}.`;
  }
  return null;
}

/** The schema as stored: `unsigned` gets GitBook's fixed description when it has none. */
export function normaliseAdaptiveSchema(jsonSchema: Json): Json {
  const properties = jsonSchema.properties as Json;
  const unsigned = properties.unsigned as Json | undefined;
  if (!unsigned || unsigned.description !== undefined) return jsonSchema;
  return {
    ...jsonSchema,
    properties: { ...properties, unsigned: { ...unsigned, description: UNSIGNED_DESCRIPTION } },
  };
}

function checkRoot(schema: unknown, path: string): void {
  const root = object(schema, path);
  allowOnly(root, path, ['$schema', 'type', 'properties', 'additionalProperties']);
  if (root.$schema !== undefined && root.$schema !== DRAFT_07) {
    throw new SchemaProblem(`${path}.$schema must be "${DRAFT_07}" (draft-07).`);
  }
  if (root.type !== 'object') throw new SchemaProblem(`${path}.type must be "object".`);
  if (root.additionalProperties !== false) {
    throw new SchemaProblem(`${path}.additionalProperties must be false.`);
  }
  const properties = object(root.properties, `${path}.properties`);
  const counter = { claims: 0 };
  for (const [name, claim] of Object.entries(properties)) {
    if (name === 'unsigned') {
      checkUnsigned(claim, `${path}.properties.unsigned`, counter);
    } else {
      checkClaim(name, claim, `${path}.properties`, 1, counter);
    }
  }
}

function checkUnsigned(value: unknown, path: string, counter: { claims: number }): void {
  const unsigned = object(value, path);
  allowOnly(unsigned, path, ['type', 'description', 'properties', 'additionalProperties']);
  if (unsigned.type !== 'object') throw new SchemaProblem(`${path}.type must be "object".`);
  if (unsigned.description !== undefined && unsigned.description !== UNSIGNED_DESCRIPTION) {
    throw new SchemaProblem(`${path}.description must be "${UNSIGNED_DESCRIPTION}".`);
  }
  if (unsigned.additionalProperties !== false) {
    throw new SchemaProblem(`${path}.additionalProperties must be false.`);
  }
  const properties = object(unsigned.properties, `${path}.properties`);
  for (const [name, claim] of Object.entries(properties)) {
    checkClaim(name, claim, `${path}.properties`, 1, counter);
  }
}

function checkClaim(
  name: string,
  value: unknown,
  parentPath: string,
  depth: number,
  counter: { claims: number },
): void {
  const path = `${parentPath}.${name}`;
  if (name.length === 0 || name.length > MAX_CLAIM_NAME) {
    throw new SchemaProblem(`${parentPath}: claim names have 1 to ${MAX_CLAIM_NAME} characters.`);
  }
  counter.claims += 1;
  if (counter.claims > MAX_CLAIMS) {
    throw new SchemaProblem(`jsonSchema: at most ${MAX_CLAIMS} claims.`);
  }
  const claim = object(value, path);
  if (typeof claim.description !== 'string') {
    throw new SchemaProblem(`${path}.description is required (a string).`);
  }
  switch (claim.type) {
    case 'boolean':
    case 'number':
      allowOnly(claim, path, ['type', 'description']);
      return;
    case 'string':
      allowOnly(claim, path, ['type', 'description', 'enum']);
      if (claim.enum !== undefined) checkEnum(claim.enum, `${path}.enum`);
      return;
    case 'array': {
      allowOnly(claim, path, ['type', 'description', 'items']);
      const items = object(claim.items, `${path}.items`);
      if (items.type === 'array' || items.type === 'object') {
        throw new SchemaProblem(`${path}.items must be a boolean, string or number claim.`);
      }
      checkClaim('items', items, path, depth, { claims: 0 });
      return;
    }
    case 'object': {
      allowOnly(claim, path, ['type', 'description', 'properties', 'additionalProperties']);
      if (depth >= MAX_DEPTH) {
        throw new SchemaProblem(`${path}: claims nest at most ${MAX_DEPTH} levels deep.`);
      }
      if (claim.additionalProperties !== false) {
        throw new SchemaProblem(`${path}.additionalProperties must be false.`);
      }
      const properties = object(claim.properties, `${path}.properties`);
      for (const [child, childClaim] of Object.entries(properties)) {
        checkClaim(child, childClaim, `${path}.properties`, depth + 1, counter);
      }
      return;
    }
    default:
      throw new SchemaProblem(
        `${path}.type must be one of "boolean", "string", "number", "array", "object".`,
      );
  }
}

function checkEnum(value: unknown, path: string): void {
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_ENUM_VALUES ||
    !value.every((item) => typeof item === 'string')
  ) {
    throw new SchemaProblem(`${path} must be 1 to ${MAX_ENUM_VALUES} strings.`);
  }
  if (new Set(value).size !== value.length) {
    throw new SchemaProblem(`${path} must not repeat values.`);
  }
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SchemaProblem(`${path} must be an object.`);
  }
  return value as Json;
}

function allowOnly(value: Json, path: string, keys: string[]): void {
  const extra = Object.keys(value).find((key) => !keys.includes(key));
  if (extra !== undefined) {
    throw new SchemaProblem(`${path}.${extra} is not allowed (allowed: ${keys.join(', ')}).`);
  }
}

export interface TemplateCondition {
  description: string;
  condition: string;
}

/**
 * Ready-made conditions for the claims of a (valid) schema, in schema order: for a boolean
 * claim `<claim> === true`; for a string enum one `<claim> === "<value>"` per value; for an
 * array of enum strings one `<claim>.includes("<value>")` per value; nested objects recurse.
 * Free strings, numbers and arrays of those have no finite set of values to suggest.
 * Unsigned claims read `visitor.claims.unsigned.<claim>`.
 */
export function templateConditions(jsonSchema: Json): TemplateCondition[] {
  const conditions: TemplateCondition[] = [];
  const properties = (jsonSchema.properties ?? {}) as Json;
  for (const [name, claim] of Object.entries(properties)) {
    if (name === 'unsigned') {
      const unsigned = (claim as Json).properties as Json;
      for (const [child, childClaim] of Object.entries(unsigned)) {
        collect(conditions, member('visitor.claims.unsigned', child), childClaim as Json);
      }
    } else {
      collect(conditions, member('visitor.claims', name), claim as Json);
    }
  }
  return conditions;
}

function collect(conditions: TemplateCondition[], path: string, claim: Json): void {
  const description = String(claim.description);
  switch (claim.type) {
    case 'boolean':
      conditions.push({ description, condition: `${path} === true` });
      return;
    case 'string':
      for (const value of (claim.enum as string[] | undefined) ?? []) {
        conditions.push({
          description: `${description}: ${value}`,
          condition: `${path} === ${JSON.stringify(value)}`,
        });
      }
      return;
    case 'array': {
      const items = claim.items as Json;
      for (const value of (items.enum as string[] | undefined) ?? []) {
        conditions.push({
          description: `${description}: includes ${value}`,
          condition: `${path}.includes(${JSON.stringify(value)})`,
        });
      }
      return;
    }
    case 'object':
      for (const [child, childClaim] of Object.entries(claim.properties as Json)) {
        collect(conditions, member(path, child), childClaim as Json);
      }
      return;
    default:
      return;
  }
}

/** `base.name`, or `base["name"]` when the name is not an identifier. */
function member(base: string, name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `${base}.${name}` : `${base}[${JSON.stringify(name)}]`;
}

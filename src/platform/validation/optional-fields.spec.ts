import { getMetadataStorage } from 'class-validator';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `@IsOptional()` lets `null` through as well as `undefined`. On a property whose value is an
 * object or a list, a `null` that the API document does not allow would reach the service and
 * fail there (a 500): such a property uses `@PresentNotNull()` (absent is fine, null is a 400
 * naming it), or is documented `nullable` and handled as such. This test holds every request
 * DTO to that rule.
 */

interface ValidationMetadata {
  propertyName: string;
  type: string;
  name?: string;
}

interface DocumentedProperty {
  type?: unknown;
  isArray?: boolean;
  nullable?: boolean;
  oneOf?: unknown;
  anyOf?: unknown;
  allOf?: unknown;
}

const SOURCE = join(__dirname, '..', '..');

function dtoFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return dtoFiles(path);
    const isDto = /\.dto\.ts$/.test(entry.name) || /[/\\]dto$/.test(folder);
    return isDto && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function holdsObjectOrList(
  documented: DocumentedProperty | undefined,
  rules: ValidationMetadata[],
): boolean {
  if (
    rules.some(
      (r) => r.type === 'nestedValidation' || r.name === 'isObject' || r.name === 'isArray',
    )
  )
    return true;
  if (!documented) return false;
  const { type } = documented;
  return Boolean(
    documented.isArray ||
    documented.oneOf ||
    documented.anyOf ||
    documented.allOf ||
    type === 'object' ||
    type === 'array' ||
    (typeof type === 'function' && ![String, Number, Boolean, Date].includes(type as never)),
  );
}

describe('optional object and list properties of request DTOs', () => {
  it('refuse null unless the API document says they are nullable', () => {
    for (const file of dtoFiles(SOURCE)) require(file);
    const storage = getMetadataStorage() as unknown as {
      validationMetadatas: Map<{ name: string; prototype: object }, ValidationMetadata[]>;
    };
    const offenders: string[] = [];
    for (const [target, metadatas] of storage.validationMetadatas) {
      const byProperty = new Map<string, ValidationMetadata[]>();
      for (const m of metadatas) {
        byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
      }
      for (const [property, rules] of byProperty) {
        if (!rules.some((r) => r.name === 'isOptional')) continue;
        const documented = Reflect.getMetadata(
          'swagger/apiModelProperties',
          target.prototype,
          property,
        ) as DocumentedProperty | undefined;
        if (documented?.nullable) continue;
        if (holdsObjectOrList(documented, rules)) offenders.push(`${target.name}.${property}`);
      }
    }
    expect(storage.validationMetadatas.size).toBeGreaterThan(50);
    expect(offenders).toEqual([]);
  });
});

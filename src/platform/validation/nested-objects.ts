import {
  getMetadataStorage,
  ValidationError,
  ValidationTypes,
  validateSync,
  type ValidatorOptions,
} from 'class-validator';

/**
 * A nested DTO's place must hold an object. class-validator treats any list it meets under
 * `@ValidateNested()` as a list of values to check, with or without `each`, and so are the
 * lists inside that list: `[[]]` where a list of objects is declared is checked not at all and
 * reaches the service, `[[{…}]]` is checked item by item one level too deep, and `[{…}]` passes
 * where one object is declared. Each DTO would need `@IsObject()` beside its `@ValidateNested()`
 * (`{ each: true }` for a list) to refuse them; this rule is that check for every one, done by
 * the validation pipe before class-validator runs.
 *
 * Absent and null values are left to the property's own rules (`@IsOptional()`,
 * `@PresentNotNull()`, `@IsObject()`), which say "is required" or "should not be null"; a value
 * that is not a list where `each` declares one is left to its `@IsArray()`.
 */

type Metadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>;

const metadataCache = new WeakMap<object, Metadata>();

function metadataOf(type: unknown): Metadata {
  if (typeof type !== 'function' || type === Object) return [];
  let metadata = metadataCache.get(type);
  if (!metadata) {
    metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', false, false);
    metadataCache.set(type, metadata);
  }
  return metadata;
}

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function problem(property: string, message: string): ValidationError {
  return Object.assign(new ValidationError(), {
    property,
    constraints: { nestedObject: `${property} ${message}` },
    children: [],
  });
}

function parent(property: string, children: ValidationError[]): ValidationError | undefined {
  return children.length > 0
    ? Object.assign(new ValidationError(), { property, children })
    : undefined;
}

/** The errors of every nested DTO place of `object` (a DTO instance) that holds no object. */
export function findMisplacedNestedValues(object: unknown): ValidationError[] {
  if (!isObject(object)) return [];
  const metadata = metadataOf(object.constructor);
  const errors: ValidationError[] = [];
  const nested = new Map<string, boolean>();
  for (const m of metadata) {
    if (m.type === ValidationTypes.NESTED_VALIDATION) {
      nested.set(m.propertyName, nested.get(m.propertyName) === true || m.each === true);
    }
  }
  for (const [property, each] of nested) {
    const value = (object as Record<string, unknown>)[property];
    if (value === undefined || value === null) continue;
    // As class-validator: a property ruled out by its conditions (@ValidateIf) is not looked at.
    const ruledOut = metadata.some(
      (m) =>
        m.type === ValidationTypes.CONDITIONAL_VALIDATION &&
        m.propertyName === property &&
        !(m.constraints[0] as (object: object, value: unknown) => boolean)(object, value),
    );
    if (ruledOut) continue;
    const error = each ? checkList(property, value) : checkObject(property, value);
    if (error) errors.push(error);
  }
  return errors;
}

function checkObject(property: string, value: unknown): ValidationError | undefined {
  if (!isObject(value)) return problem(property, 'must be an object');
  return parent(property, findMisplacedNestedValues(value));
}

function checkList(property: string, value: unknown): ValidationError | undefined {
  if (!Array.isArray(value)) return undefined;
  const children = value.flatMap((item: unknown, index) => {
    const error = checkObject(String(index), item);
    return error ? [error] : [];
  });
  return parent(property, children);
}

/**
 * class-validator's `validateSync`, with the rule above first, as the validation pipe applies
 * them: for a body checked by hand (one object or a list of them).
 */
export function validateNestedSync(object: object, options: ValidatorOptions): ValidationError[] {
  const misplaced = findMisplacedNestedValues(object);
  return misplaced.length > 0 ? misplaced : validateSync(object, options);
}

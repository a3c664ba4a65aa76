import { ArgumentMetadata, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { ValidationError, ValidatorOptions } from 'class-validator';
import { invalidInput } from '../errors/domain-error';
import { findMisplacedNestedValues } from './nested-objects';
import { cacheValidationMetadata } from './validation-metadata-cache';

const IGNORES_UNKNOWN_PROPERTIES = Symbol('bindery:ignores-unknown-properties');

/**
 * Marks a body DTO whose GitBook operation accepts "any other properties": unknown top-level
 * properties are dropped instead of answered 400. Its declared properties are validated as usual.
 */
export function IgnoreUnknownProperties(): ClassDecorator {
  return (target) => {
    Object.defineProperty(target, IGNORES_UNKNOWN_PROPERTIES, { value: true });
  };
}

function ignoresUnknownProperties(type: unknown): boolean {
  return typeof type === 'function' && IGNORES_UNKNOWN_PROPERTIES in type;
}

const OPTIONS: ValidationPipeOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  // The value tells a missing property (undefined) from a wrong one; it never reaches the message.
  validationError: { target: false, value: true },
  exceptionFactory: (errors) => invalidInput(describeValidationErrors(errors)),
};

/**
 * Nest's pipe, with every nested DTO's place held to an object first (nested-objects.ts):
 * when one is not, that is the answer, as class-validator's messages about what it found
 * there ("an unknown value was passed…") would only obscure it.
 */
class NestedObjectsValidationPipe extends ValidationPipe {
  protected override async validate(
    object: object,
    options?: ValidatorOptions,
  ): Promise<ValidationError[]> {
    const misplaced = findMisplacedNestedValues(object);
    return misplaced.length > 0 ? misplaced : super.validate(object, options);
  }
}

/**
 * The global pipe: strips nothing silently (unknown fields are a 400, except on DTOs marked
 * `@IgnoreUnknownProperties()`, where they are dropped) and converts query strings.
 */
class BinderyValidationPipe extends NestedObjectsValidationPipe {
  private readonly lenient = new NestedObjectsValidationPipe({
    ...OPTIONS,
    forbidNonWhitelisted: false,
  });

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return ignoresUnknownProperties(metadata.metatype)
      ? this.lenient.transform(value, metadata)
      : super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new BinderyValidationPipe(OPTIONS);
}

/** "limit must not be greater than 1000; emailDomains.0 must be a string" */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string {
  return errors
    .flatMap((error) => messagesOf(error, parent))
    .slice(0, 10)
    .join('; ');
}

function messagesOf(error: ValidationError, parent: string): string[] {
  const path = parent ? `${parent}.${error.property}` : error.property;
  const constraints = Object.values(error.constraints ?? {});
  const own = isMissing(error, constraints)
    ? [`${path} is required`]
    : constraints.map((m) => qualify(m, error.property, path));
  const nested = (error.children ?? []).flatMap((child) => messagesOf(child, path));
  return [...own, ...nested];
}

/**
 * A property left out (undefined) that had to be given: one "<path> is required" instead of
 * what its other rules say of no value ("title must be shorter than…"). Optional properties
 * never fail when left out. A rule whose own message already says what is required (`url or
 * base64 is required`) keeps it. Needs errors made with `validationError.value` on.
 */
function isMissing(error: ValidationError, constraints: string[]): boolean {
  return (
    constraints.length > 0 &&
    'value' in error &&
    error.value === undefined &&
    !constraints.some((message) => /\brequired\b/.test(message))
  );
}

/** class-validator names only the last property; name the whole path instead. */
function qualify(message: string, property: string, path: string): string {
  if (path === property) return message;
  const unknownPrefix = `property ${property} `;
  if (message.startsWith(unknownPrefix))
    return `property ${path} ${message.slice(unknownPrefix.length)}`;
  if (message.startsWith(`${property} `)) return `${path}${message.slice(property.length)}`;
  return `${path}: ${message}`;
}

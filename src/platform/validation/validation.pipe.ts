import { ValidationPipe } from '@nestjs/common';
import { ValidationError } from 'class-validator';
import { invalidInput } from '../errors/domain-error';

/** The global pipe: strips nothing silently (unknown fields are a 400) and converts query strings. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => invalidInput(describeValidationErrors(errors)),
  });
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
  const own = Object.values(error.constraints ?? {}).map((m) => qualify(m, error.property, path));
  const nested = (error.children ?? []).flatMap((child) => messagesOf(child, path));
  return [...own, ...nested];
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

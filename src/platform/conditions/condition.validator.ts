import { ValidateBy, ValidationOptions } from 'class-validator';
import { charCount } from '../validation/chars';
import { conditionProblem } from './condition';

export const MAX_CONDITION_LENGTH = 1024;

/**
 * A condition of a site space, section or page: at most 1024 characters and a valid expression over
 * the visitor's claims; the message says what is wrong ("condition: Unknown name ...").
 */
export function IsCondition(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCondition',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          charCount(value) <= MAX_CONDITION_LENGTH &&
          conditionProblem(value) === null,
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          if (typeof value !== 'string') return '$property must be a string';
          if (charCount(value) > MAX_CONDITION_LENGTH) {
            return `$property must be shorter than or equal to ${MAX_CONDITION_LENGTH} characters`;
          }
          return `$property: ${conditionProblem(value) ?? 'invalid condition'}`;
        },
      },
    },
    options,
  );
}

import { IsDefined, ValidateIf } from 'class-validator';

/**
 * For PATCH fields that may be left out but not cleared: absent skips the field's other
 * validators, null fails with "<field> should not be null or undefined".
 */
export function PresentNotNull(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    ValidateIf((_, value: unknown) => value !== undefined)(target, propertyName);
    IsDefined()(target, propertyName);
  };
}

import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';

/** A boolean in the query string: `true` or `false`; anything else is a 400. */
export function QueryBoolean(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    )(target, propertyName);
    IsBoolean({ message: `${String(propertyName)} must be true or false` })(target, propertyName);
  };
}

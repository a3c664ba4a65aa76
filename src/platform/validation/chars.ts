import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

/**
 * The length of a string as PostgreSQL's `varchar(n)` counts it: in characters (code points).
 * class-validator's `Length`/`MaxLength` count differently (they drop emoji presentation
 * selectors such as the one in ❤️), so a value they accept could still overflow the column.
 */
export function charCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** Like `MaxLength`, counting characters as the column does. */
export function MaxChars(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxChars',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && charCount(value) <= max,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be shorter than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
}

/** Like `Length(min, max)`, counting characters as the column does. */
export function Chars(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'chars',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const count = charCount(value);
          return count >= min && count <= max;
        },
        defaultMessage: buildMessage(
          (each, args) =>
            args && typeof args.value === 'string' && charCount(args.value) < min
              ? `${each}$property must be longer than or equal to $constraint1 characters`
              : `${each}$property must be shorter than or equal to $constraint2 characters`,
          options,
        ),
      },
    },
    options,
  );
}

import type { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { createValidationPipe, describeValidationErrors } from './validation.pipe';

class AddressDto {
  @IsString()
  @MinLength(1)
  name!: string;

  @IsOptional()
  @IsString()
  city?: string;
}

class MemberDto {
  @IsEmail()
  email!: string;
}

class CreateThingDto {
  @IsString()
  @MaxLength(10)
  title!: string;

  // @ValidateNested alone lets a missing object through; @IsObject makes it required.
  @IsObject()
  @ValidateNested()
  @Type(() => AddressDto)
  nested!: AddressDto;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsString({ each: true })
  tags?: string[];

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => MemberDto)
  members?: MemberDto[];
}

/** Nested DTOs declared without @IsObject: the pipe holds them to objects all the same. */
class ShipmentDto {
  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  from?: AddressDto;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AddressDto)
  stops!: AddressDto[];
}

class ListQueryDto {
  @IsOptional()
  @IsString()
  page?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

const body = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({
  type: 'body',
  metatype,
});
const query = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({
  type: 'query',
  metatype,
});

const valid = () => ({ title: 'Hello', nested: { name: 'Home' } });

/** Runs the pipe, expecting the DomainError of invalid input, and returns its message. */
async function rejection(value: unknown, metadata: ArgumentMetadata): Promise<string> {
  const pipe = createValidationPipe();
  let failure: unknown;
  try {
    await pipe.transform(value, metadata);
  } catch (error) {
    failure = error;
  }
  expect(failure).toBeInstanceOf(DomainError);
  const error = failure as DomainError;
  expect(error.kind).toBe('bad_request');
  expect(error.code).toBe('InvalidInput');
  return error.message;
}

/** The message split into its problems. */
const problems = (message: string) => message.split('; ');

describe('createValidationPipe', () => {
  describe('valid input', () => {
    it('accepts a valid body and returns an instance of the DTO', async () => {
      const result = await createValidationPipe().transform(
        { ...valid(), tags: ['a', 'b'], members: [{ email: 'a@example.com' }] },
        body(CreateThingDto),
      );
      expect(result).toBeInstanceOf(CreateThingDto);
      expect(result.nested).toBeInstanceOf(AddressDto);
      expect(result.members[0]).toBeInstanceOf(MemberDto);
      expect(result).toEqual({
        title: 'Hello',
        nested: { name: 'Home' },
        tags: ['a', 'b'],
        members: [{ email: 'a@example.com' }],
      });
    });

    it('converts query strings to numbers where the DTO says so', async () => {
      const result = await createValidationPipe().transform(
        { page: 'abc', limit: '25' },
        query(ListQueryDto),
      );
      expect(result).toBeInstanceOf(ListQueryDto);
      expect(result.limit).toBe(25);
      expect(result.page).toBe('abc');
    });

    it('accepts an empty query', async () => {
      const result = await createValidationPipe().transform({}, query(ListQueryDto));
      expect(result).toEqual({});
    });

    it('does not convert types implicitly', async () => {
      // `title` is a string field without @Type: a number must not be turned into "123".
      const message = await rejection({ ...valid(), title: 123 }, body(CreateThingDto));
      expect(message).toContain('title must be a string');
    });
  });

  describe('failing fields', () => {
    it('names a failing top-level field', async () => {
      const message = await rejection(
        { ...valid(), title: 'far too long a title' },
        body(CreateThingDto),
      );
      expect(problems(message)).toEqual(['title must be shorter than or equal to 10 characters']);
    });

    it('names a failing nested field by its full path', async () => {
      const message = await rejection(
        { title: 'Hello', nested: { name: 42 } },
        body(CreateThingDto),
      );
      expect(problems(message)).toEqual(expect.arrayContaining(['nested.name must be a string']));
      for (const problem of problems(message))
        expect(problem.startsWith('nested.name ')).toBe(true);
    });

    it('names a failing field of an array element by its full path', async () => {
      const message = await rejection(
        { ...valid(), members: [{ email: 'a@example.com' }, { email: 'not-an-email' }] },
        body(CreateThingDto),
      );
      expect(problems(message)).toEqual(['members.1.email must be an email']);
    });

    it('reports an invalid array of scalars', async () => {
      const message = await rejection({ ...valid(), tags: ['a', 7] }, body(CreateThingDto));
      expect(problems(message)).toEqual(['each value in tags must be a string']);
    });

    it('reports a missing nested object as required', async () => {
      const message = await rejection({ title: 'Hello' }, body(CreateThingDto));
      expect(problems(message)).toEqual(['nested is required']);
    });

    it('reports a nested field that is not an object', async () => {
      const message = await rejection({ title: 'Hello', nested: 'Home' }, body(CreateThingDto));
      expect(problems(message)).toContain('nested must be an object');
    });

    it('reports a query number out of range, and a non-number', async () => {
      expect(await rejection({ limit: '0' }, query(ListQueryDto))).toBe(
        'limit must not be less than 1',
      );
      expect(problems(await rejection({ limit: 'ten' }, query(ListQueryDto)))).toEqual(
        expect.arrayContaining(['limit must be an integer number']),
      );
    });

    it('reports every failing field together', async () => {
      const message = await rejection(
        { title: 5, nested: { name: '' }, members: [{ email: 'x' }] },
        body(CreateThingDto),
      );
      expect(problems(message)).toEqual(
        expect.arrayContaining([
          'title must be a string',
          'nested.name must be longer than or equal to 1 characters',
          'members.0.email must be an email',
        ]),
      );
    });
  });

  describe('missing properties', () => {
    it('says "is required" of a missing property, whatever its other rules', async () => {
      // `title` is a string of at most 10 characters: none of that is the problem of {}.
      expect(problems(await rejection({}, body(CreateThingDto)))).toEqual([
        'title is required',
        'nested is required',
      ]);
    });

    it('names a missing nested property by its full path', async () => {
      expect(problems(await rejection({ title: 'Hi', nested: {} }, body(CreateThingDto)))).toEqual([
        'nested.name is required',
      ]);
      expect(
        problems(
          await rejection(
            { ...valid(), members: [{ email: 'a@example.com' }, {}] },
            body(CreateThingDto),
          ),
        ),
      ).toEqual(['members.1.email is required']);
    });

    it('keeps the messages of a property that is given but wrong, null included', async () => {
      expect(problems(await rejection({ ...valid(), title: null }, body(CreateThingDto)))).toEqual(
        expect.arrayContaining(['title must be a string']),
      );
      expect(
        problems(
          await rejection({ ...valid(), title: 'far too long a title' }, body(CreateThingDto)),
        ),
      ).toEqual(['title must be shorter than or equal to 10 characters']);
    });

    it('never requires an optional property', async () => {
      await expect(
        createValidationPipe().transform(valid(), body(CreateThingDto)),
      ).resolves.toEqual(valid());
    });

    it("keeps a rule's own message when it already says what is required", () => {
      expect(
        describeValidationErrors([
          {
            property: 'url',
            value: undefined,
            constraints: { oneOf: 'one of url or base64 is required' },
          },
        ]),
      ).toBe('one of url or base64 is required');
    });

    it('cannot tell a missing property without its value, and keeps the messages', () => {
      expect(
        describeValidationErrors([
          { property: 'title', constraints: { isString: 'title must be a string' } },
        ]),
      ).toBe('title must be a string');
    });
  });

  describe('unknown properties', () => {
    it('reports an unknown top-level property', async () => {
      const message = await rejection({ ...valid(), extra: 1 }, body(CreateThingDto));
      expect(problems(message)).toEqual(['property extra should not exist']);
    });

    it('reports an unknown nested property by its full path', async () => {
      const message = await rejection(
        { title: 'Hello', nested: { name: 'Home', extra: true } },
        body(CreateThingDto),
      );
      expect(problems(message)).toEqual(['property nested.extra should not exist']);
    });

    it('reports an unknown property of an array element by its full path', async () => {
      const message = await rejection(
        { ...valid(), members: [{ email: 'a@example.com', role: 'admin' }] },
        body(CreateThingDto),
      );
      expect(problems(message)).toEqual(['property members.0.role should not exist']);
    });

    it('reports an unknown query parameter', async () => {
      expect(await rejection({ limit: '5', sort: 'asc' }, query(ListQueryDto))).toBe(
        'property sort should not exist',
      );
    });
  });
});

describe('nested objects', () => {
  const stop = { name: 'Depot' };
  const shipment = (value: Record<string, unknown>) => ({ stops: [stop], ...value });

  it.each([
    ['an empty list', [[]], 'stops.0 must be an object'],
    ['lists of lists', [[[]]], 'stops.0 must be an object'],
    ['a valid item in a list', [[stop]], 'stops.0 must be an object'],
    ['an empty object in a list', [[{}]], 'stops.0 must be an object'],
    ['a number', [1], 'stops.0 must be an object'],
    ['a string', ['x'], 'stops.0 must be an object'],
    ['null', [null], 'stops.0 must be an object'],
  ])('refuses %s as an item of a list of objects', async (_, stops, expected) => {
    expect(problems(await rejection({ stops }, body(ShipmentDto)))).toEqual([expected]);
  });

  it('names every misplaced item, after valid ones', async () => {
    expect(problems(await rejection({ stops: [stop, [], 'x'] }, body(ShipmentDto)))).toEqual([
      'stops.1 must be an object',
      'stops.2 must be an object',
    ]);
  });

  it.each([
    ['a list of it', [stop]],
    ['a list of lists', [[stop]]],
    ['an empty list', []],
  ])('refuses %s where one object is declared', async (_, from) => {
    expect(problems(await rejection(shipment({ from }), body(ShipmentDto)))).toEqual([
      'from must be an object',
    ]);
  });

  it('looks into nested objects and the items of lists', async () => {
    expect(
      problems(
        await rejection(
          { ...valid(), members: [{ email: 'a@example.com' }, [[]]] },
          body(CreateThingDto),
        ),
      ),
    ).toEqual(['members.1 must be an object']);
  });

  it('leaves absent and null values to the rules of their property', async () => {
    await expect(
      createValidationPipe().transform(shipment({ from: null }), body(ShipmentDto)),
    ).resolves.toEqual(shipment({ from: null }));
    expect(problems(await rejection({}, body(ShipmentDto)))).toEqual(['stops is required']);
    expect(problems(await rejection({ stops: {} }, body(ShipmentDto)))).toContain(
      'stops must be an array',
    );
  });

  it('accepts objects where they are declared', async () => {
    const value = shipment({ from: { name: 'Home', city: 'Lyon' } });
    await expect(createValidationPipe().transform(value, body(ShipmentDto))).resolves.toEqual(
      value,
    );
  });
});

describe('describeValidationErrors', () => {
  it('joins messages with "; " and qualifies nested paths', () => {
    expect(
      describeValidationErrors([
        { property: 'limit', constraints: { max: 'limit must not be greater than 1000' } },
        {
          property: 'emailDomains',
          children: [{ property: '0', constraints: { isString: '0 must be a string' } }],
        },
        {
          property: 'nested',
          children: [{ property: 'name', constraints: { custom: 'is bad' } }],
        },
      ]),
    ).toBe(
      'limit must not be greater than 1000; emailDomains.0 must be a string; nested.name: is bad',
    );
  });

  it('keeps at most 10 messages', () => {
    const errors = Array.from({ length: 15 }, (_, i) => ({
      property: `f${i}`,
      constraints: { isString: `f${i} must be a string` },
    }));
    const message = describeValidationErrors(errors);
    expect(problems(message)).toHaveLength(10);
    expect(message).toContain('f9 must be a string');
    expect(message).not.toContain('f10 ');
  });

  it('returns an empty string for no errors', () => {
    expect(describeValidationErrors([])).toBe('');
  });
});

import { getMetadataStorage, IsInt, IsOptional, IsString, Min, validate } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString() title!: string;
}

class Derived extends Base {
  @IsOptional() @IsInt() @Min(1) limit?: number;
}

const messages = async (type: new () => object, plain: object) =>
  (await validate(plainToInstance(type, plain))).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );

describe('cacheValidationMetadata', () => {
  const storage = getMetadataStorage();

  it('validates as before, inherited rules included', async () => {
    const before = [
      await messages(Derived, { title: 3, limit: 0 }),
      await messages(Derived, { title: 'a', limit: 2 }),
      await messages(Base, {}),
    ];
    cacheValidationMetadata();
    cacheValidationMetadata(); // once only
    expect([
      await messages(Derived, { title: 3, limit: 0 }),
      await messages(Derived, { title: 'a', limit: 2 }),
      await messages(Base, {}),
    ]).toEqual(before);
    expect(before[0]).toEqual(['limit must not be less than 1', 'title must be a string']);
  });

  it('looks a class up once, then remembers it', () => {
    cacheValidationMetadata();
    // class-validator passes no schema name when it validates a class.
    const noSchema = undefined as unknown as string;
    const remembered = storage.getTargetValidationMetadatas(Derived, noSchema, false, false);
    expect(storage.getTargetValidationMetadatas(Derived, noSchema, false, false)).toBe(remembered);
    expect(remembered.map((rule) => rule.propertyName).sort()).toEqual([
      'limit',
      'limit',
      'limit',
      'title',
    ]);
    // Other options are remembered apart; a schema name is looked up every time, as before.
    expect(storage.getTargetValidationMetadatas(Derived, noSchema, true, false)).not.toBe(
      remembered,
    );
    const bySchema = storage.getTargetValidationMetadatas(Derived, 'schema', false, false);
    expect(storage.getTargetValidationMetadatas(Derived, 'schema', false, false)).not.toBe(
      bySchema,
    );
  });

  it('forgets what it remembered when a rule is added', async () => {
    cacheValidationMetadata();
    class Later {
      @IsString() name!: string;
    }
    expect(await messages(Later, { name: 1 })).toEqual(['name must be a string']);
    IsInt()(Later.prototype, 'count');
    expect(await messages(Later, { name: 'a', count: 'x' })).toEqual([
      'count must be an integer number',
    ]);
  });
});

import { plainToInstance, Transform } from 'class-transformer';

type Constructor = new () => object;

/**
 * A list of objects whose class is chosen by one of their properties (`operation`), for
 * `@ValidateNested({ each: true })`. class-transformer's own `@Type(..., { discriminator })`
 * reads the property of every item, so a `null` or a number in the list makes it throw; here
 * an item that is not an object is left as it is, for the validator to refuse it by its index
 * ("changes.0 …"), and an object with an unknown value gets `fallback`, which names the values
 * allowed.
 */
export function DiscriminatedType(
  property: string,
  subTypes: Record<string, Constructor>,
  fallback: Constructor,
): PropertyDecorator {
  const toInstance = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const key = (item as Record<string, unknown>)[property];
    const type = typeof key === 'string' && Object.hasOwn(subTypes, key) ? subTypes[key] : fallback;
    return plainToInstance(type, item);
  };
  return Transform(({ value }) => (Array.isArray(value) ? value.map(toInstance) : value), {
    toClassOnly: true,
  });
}

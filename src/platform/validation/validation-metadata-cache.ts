import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Lookup = (
  target: Function, // eslint-disable-line @typescript-eslint/no-unsafe-function-type
  schema: string | undefined,
  always: boolean,
  strictGroups: boolean,
  groups?: string[],
) => ValidationMetadata[];

interface Storage {
  getTargetValidationMetadatas: Lookup;
  addValidationMetadata(metadata: ValidationMetadata): void;
}

const cached = new WeakSet<object>();

/**
 * class-validator finds a class's rules, on every validation of every object (and Nest's pipe
 * again, looking for nested binary values), by testing the class against every class that has
 * rules (hundreds of DTOs here) for inheritance: a few percent of the CPU of each request with a
 * body or a query. The rules of a class do not change once its module is loaded, so the lookup
 * is remembered per class and options (a schema name or groups, which Bindery does not use, are
 * looked up as before), and forgotten whenever a rule is added. The arrays it hands out are only
 * read by class-validator and Nest.
 */
export function cacheValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage;
  if (cached.has(storage)) return;
  cached.add(storage);
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  let remembered = new Map<Function, Map<string, ValidationMetadata[]>>();
  storage.addValidationMetadata = (metadata) => {
    remembered = new Map();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema !== undefined || (groups && groups.length > 0)) {
      return lookup(target, schema, always, strictGroups, groups);
    }
    const options = `${always}:${strictGroups}`;
    let byOptions = remembered.get(target);
    if (!byOptions) remembered.set(target, (byOptions = new Map()));
    let metadatas = byOptions.get(options);
    if (!metadatas) {
      metadatas = lookup(target, schema, always, strictGroups, groups);
      byOptions.set(options, metadatas);
    }
    return metadatas;
  };
}

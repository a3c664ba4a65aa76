import { DynamicModule, Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DataSourceOptions } from 'typeorm';
import type { DatabaseTarget } from './database';
import { dataSourceOptions } from './data-source-options';
import { applyPendingMigrations, describeMigrationRun } from './migrations';
import { enablePreparedStatements } from './prepared-query';
import { RetryingDataSource } from './retrying-data-source';
import { whileHoldingStartLock } from './start-lock';

const MIGRATIONS_LOG = new Logger('Migrations');

/** TypeORM on the database chosen at start (see `openDatabase`); entities come from each module. */
@Module({})
export class DatabaseModule {
  /**
   * `preparedStatements`: let hot statements be prepared (see prepared-query.ts); never on the
   * embedded server, which runs every pool connection in one backend session where two
   * connections preparing the same statement name would collide.
   */
  static forRoot(database: DatabaseTarget, preparedStatements: boolean): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(database.url, {
              size: config.DATABASE_POOL_SIZE,
              acquireTimeoutMs: config.DATABASE_POOL_ACQUIRE_TIMEOUT_MS,
              // The embedded server runs one session for every connection, one at a time:
              // no lock is ever waited for, and a timeout would apply to all of them.
              ...(database.embedded
                ? {}
                : {
                    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
                    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
                  }),
            }),
            // Pending migrations run before anything else uses the connection.
            migrationsRun: config.MIGRATIONS_RUN,
            autoLoadEntities: true,
            retryAttempts: 2,
            retryDelay: 500,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = new RetryingDataSource({
              ...(options as DataSourceOptions),
              migrationsRun: false,
            });
            if (preparedStatements && !database.embedded) enablePreparedStatements(dataSource);
            if (!options?.migrationsRun) return dataSource.initialize();
            // One process at a time (the others then find none pending).
            // Migrations first, on a connection of their own (without the pool's timeouts).
            return whileHoldingStartLock(database.url, async () => {
              await migrate(database.url);
              return dataSource.initialize();
            });
          },
        }),
      ],
    };
  }
}

async function migrate(url: string): Promise<void> {
  const run = await applyPendingMigrations(url);
  for (const line of describeMigrationRun(run)) MIGRATIONS_LOG.log(line);
}

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
            ...dataSourceOptions(database.url, config.DATABASE_POOL_SIZE),
            // Pending migrations run before anything else uses the connection.
            migrationsRun: config.MIGRATIONS_RUN,
            migrationsTransactionMode: 'each',
            autoLoadEntities: true,
            retryAttempts: 2,
            retryDelay: 500,
          }),
          dataSourceFactory: async (options) => {
            // Migrations run here rather than by TypeORM's migrationsRun, to log what they did.
            const dataSource = new RetryingDataSource({
              ...(options as DataSourceOptions),
              migrationsRun: false,
            });
            if (preparedStatements && !database.embedded) enablePreparedStatements(dataSource);
            if (!options?.migrationsRun) return dataSource.initialize();
            // One process at a time (the others then find none pending).
            return whileHoldingStartLock(database.url, async () => {
              await dataSource.initialize();
              try {
                const run = await applyPendingMigrations(dataSource);
                for (const line of describeMigrationRun(run)) MIGRATIONS_LOG.log(line);
              } catch (error) {
                await dataSource.destroy().catch(() => undefined);
                throw error;
              }
              return dataSource;
            });
          },
        }),
      ],
    };
  }
}

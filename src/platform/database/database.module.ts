import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { DataSourceOptions } from 'typeorm';
import type { DatabaseTarget } from './database';
import { dataSourceOptions } from './data-source-options';
import { enablePreparedStatements } from './prepared-query';
import { RetryingDataSource } from './retrying-data-source';
import { whileHoldingStartLock } from './start-lock';

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
            const dataSource = new RetryingDataSource(options as DataSourceOptions);
            if (preparedStatements && !database.embedded) enablePreparedStatements(dataSource);
            // Migrations run as it initializes: one process at a time (the others then find
            // none pending).
            return options?.migrationsRun
              ? whileHoldingStartLock(database.url, () => dataSource.initialize())
              : dataSource.initialize();
          },
        }),
      ],
    };
  }
}

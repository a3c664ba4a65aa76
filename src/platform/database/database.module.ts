import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';

/** TypeORM on the database chosen at start (see `openDatabase`); entities come from each module. */
@Module({})
export class DatabaseModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(url, config.DATABASE_POOL_SIZE),
            // Pending migrations run before anything else uses the connection.
            migrationsRun: config.MIGRATIONS_RUN,
            migrationsTransactionMode: 'each',
            autoLoadEntities: true,
            retryAttempts: 2,
            retryDelay: 500,
          }),
        }),
      ],
    };
  }
}

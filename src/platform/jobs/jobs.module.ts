import { DynamicModule, Global, Module } from '@nestjs/common';
import { JOBS_DATABASE_URL, JobsService } from './jobs.service';

@Global()
@Module({})
export class JobsModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: JobsModule,
      providers: [{ provide: JOBS_DATABASE_URL, useValue: url }, JobsService],
      exports: [JobsService],
    };
  }
}

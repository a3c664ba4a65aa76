import { DynamicModule, Global, Module } from '@nestjs/common';
import { AdminJobsController } from './admin-jobs.controller';
import { AdminJobsService } from './admin-jobs.service';
import { JobsRepository } from './jobs.repository';
import { JOBS_DATABASE_URL, JobsService } from './jobs.service';

/** Background jobs (pg-boss), and the instance administrator's view of them. */
@Global()
@Module({})
export class JobsModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: JobsModule,
      controllers: [AdminJobsController],
      providers: [
        { provide: JOBS_DATABASE_URL, useValue: url },
        JobsService,
        JobsRepository,
        AdminJobsService,
      ],
      exports: [JobsService],
    };
  }
}

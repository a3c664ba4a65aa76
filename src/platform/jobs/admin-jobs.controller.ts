import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { Access } from '../auth/access.decorator';
import { ErrorBody } from '../errors/error-body';
import { PageOf, type Page } from '../pagination/page';
import { PageQueryDto } from '../pagination/page-query.dto';
import { AdminJobsService } from './admin-jobs.service';
import { FailedJobResponse, FailedJobsQueryDto, JobQueueResponse } from './dto/admin-jobs.dto';

const badRequest = ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' });

/** The instance administrator's view of the background jobs (pg-boss queues). */
@Controller('admin/jobs')
@Access.admin()
export class AdminJobsController {
  constructor(private readonly jobs: AdminJobsService) {}

  @Get('queues')
  @ApiOperation({
    operationId: 'adminListJobQueues',
    summary: 'List the background job queues with their jobs by state',
    description:
      'Bindery only: every pg-boss queue, by name, with its live jobs counted by state ' +
      '(`created`, `retry`, `active`, `completed`, `cancelled`, `failed`) across every process. ' +
      'pg-boss archives finished jobs after 12 hours; archived jobs are not counted.',
  })
  @ApiOkResponse({ type: PageOf(JobQueueResponse) })
  @badRequest
  queues(@Query() query: PageQueryDto): Promise<Page<JobQueueResponse>> {
    return this.jobs.queues(query);
  }

  @Get('failed')
  @ApiOperation({
    operationId: 'adminListFailedJobs',
    summary: 'List the jobs that failed for good',
    description:
      'Bindery only: jobs whose every attempt failed, newest failure first, of one queue with ' +
      '`queue`: when, how many attempts, and the last error with secrets redacted. Never the ' +
      "job's data. Kept until pg-boss archives them (12 hours after the failure).",
  })
  @ApiOkResponse({ type: PageOf(FailedJobResponse) })
  @badRequest
  failed(@Query() query: FailedJobsQueryDto): Promise<Page<FailedJobResponse>> {
    return this.jobs.failed(query, query.queue);
  }

  @Post(':jobId/retry')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'adminRetryJob',
    summary: 'Retry a failed job',
    description:
      'Bindery only: puts a job that failed for good back in its queue with one more attempt; ' +
      'a worker runs it at its next poll. 404 for an unknown (or archived) job, 409 for a job ' +
      'that is not failed.',
  })
  @ApiParam({ name: 'jobId', format: 'uuid', description: 'The id of a failed job.' })
  @ApiNoContentResponse({ description: 'The job is queued again.' })
  @ApiNotFoundResponse({ type: ErrorBody, description: 'No such job (or archived).' })
  @ApiConflictResponse({ type: ErrorBody, description: 'The job is not failed.' })
  async retry(@Param('jobId') jobId: string): Promise<void> {
    await this.jobs.retry(jobId);
  }
}

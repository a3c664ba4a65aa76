import { Injectable } from '@nestjs/common';
import { DomainError, notFound } from '../errors/domain-error';
import type { PageRequest } from '../pagination/keyset';
import { mapPage, type Page } from '../pagination/page';
import { pageOfList } from '../pagination/slice';
import type { FailedJobResponse, JobQueueResponse } from './dto/admin-jobs.dto';
import { jobErrorMessage, redactJobError } from './job-error';
import { JobsRepository, type JobRow } from './jobs.repository';
import { JobsService } from './jobs.service';

const jobNotFound = () => notFound('Job');

/** The instance administrator's view of the background jobs: queues, failures, retries. */
@Injectable()
export class AdminJobsService {
  constructor(
    private readonly repository: JobsRepository,
    private readonly jobs: JobsService,
  ) {}

  async queues(request: PageRequest): Promise<Page<JobQueueResponse>> {
    const queues = (await this.repository.queues()).map((queue): JobQueueResponse => ({
      object: 'job-queue',
      ...queue,
    }));
    return pageOfList(queues, request, 'job-queues');
  }

  async failed(request: PageRequest, queue?: string): Promise<Page<FailedJobResponse>> {
    return mapPage(await this.repository.failed(request, queue), presentFailedJob);
  }

  /**
   * Runs a job failed for good once more. 404 for an unknown job (archived ones included),
   * 409 for a job that is not failed.
   */
  async retry(jobId: string): Promise<void> {
    const job = await this.repository.find(jobId);
    if (!job) throw jobNotFound();
    if (job.state !== 'failed' || !(await this.jobs.retry(job.name, job.id))) {
      throw new DomainError(
        'conflict',
        'JobNotFailed',
        `Job ${jobId} is ${job.state === 'failed' ? 'no longer failed' : job.state}: only a failed job can be retried.`,
      );
    }
  }
}

function presentFailedJob(job: JobRow): FailedJobResponse {
  const message = jobErrorMessage(job.output);
  return {
    object: 'job',
    id: job.id,
    queue: job.name,
    state: 'failed',
    createdAt: job.createdOn.toISOString(),
    ...(job.startedOn ? { startedAt: job.startedOn.toISOString() } : {}),
    failedAt: (job.completedOn ?? job.createdOn).toISOString(),
    // pg-boss counts a retry when the next attempt starts: the first attempt is not one.
    attempts: job.startedOn ? job.retryCount + 1 : job.retryCount,
    ...(message !== null ? { error: redactJobError(message) } : {}),
  };
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../../pagination/page-query.dto';
import { Chars } from '../../validation/chars';

export class FailedJobsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Only the jobs of this queue.',
    example: 'webhook-deliveries',
  })
  @IsOptional()
  @IsString()
  @Chars(1, 255)
  queue?: string;
}

/** A queue's live jobs by pg-boss state. */
export class JobCountsResponse {
  @ApiProperty({ description: 'Queued, waiting for a worker.' }) created!: number;
  @ApiProperty({ description: 'Failed an attempt, waiting to be tried again.' }) retry!: number;
  @ApiProperty({ description: 'At work in some process.' }) active!: number;
  @ApiProperty({ description: 'Done (kept 12 hours, then archived).' }) completed!: number;
  @ApiProperty({ description: 'Cancelled.' }) cancelled!: number;
  @ApiProperty({ description: 'Failed for good (every attempt).' }) failed!: number;
}

/** A background job queue, as pg-boss holds it now (every process together). */
export class JobQueueResponse {
  @ApiProperty({ enum: ['job-queue'] }) object!: 'job-queue';
  @ApiProperty({ example: 'webhook-deliveries' }) name!: string;
  @ApiProperty({
    description: "pg-boss's queue policy: `standard`, `short`, `singleton` or `stately`.",
  })
  policy!: string;
  @ApiProperty({ type: JobCountsResponse }) counts!: JobCountsResponse;
}

/** A job that failed for good: never its data (it may carry sealed secrets). */
export class FailedJobResponse {
  @ApiProperty({ enum: ['job'] }) object!: 'job';
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'Its queue.' }) queue!: string;
  @ApiProperty({ enum: ['failed'] }) state!: 'failed';
  @ApiProperty({ format: 'date-time', description: 'When it was queued.' }) createdAt!: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'When its last attempt started.' })
  startedAt?: string;
  @ApiProperty({ format: 'date-time', description: 'When its last attempt failed.' })
  failedAt!: string;
  @ApiProperty({ description: 'Attempts made.' }) attempts!: number;
  @ApiPropertyOptional({
    description:
      'The error of its last attempt, with secrets (credentials in URLs, tokens, passwords) ' +
      'replaced by `[REDACTED]`, cut to 1000 characters.',
  })
  error?: string;
}

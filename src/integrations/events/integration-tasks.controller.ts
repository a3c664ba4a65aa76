import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNoContentResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
} from '@nestjs/swagger';
import { IsNumber, IsObject, IsOptional, Max, Min } from 'class-validator';
import { Access, Granted } from '../../platform/auth/access.decorator';
import { ErrorBody } from '../../platform/errors/error-body';
import type { ResolvedAccess } from '../../platform/policy/access';
import type { Integration } from '../entities/integration.entity';
import { IntegrationTasks } from './integration-tasks';

class QueueIntegrationTaskDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Payload for the integration task (at most 64 KB as JSON).',
  })
  @IsObject()
  task!: Record<string, unknown>;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 86400,
    description: 'Number of seconds to wait before executing the task, defaults to 0.',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(86400)
  schedule?: number;
}

/** An integration's tasks: work its script queues for itself, sent back to it when due. */
@Controller('integrations/:integrationName/tasks')
export class IntegrationTasksController {
  constructor(private readonly tasks: IntegrationTasks) {}

  @Post()
  @HttpCode(204)
  @Access('integration', 'admin', {
    param: 'integrationName',
    integrations: { integration: true, only: true },
  })
  @ApiOperation({
    operationId: 'queueIntegrationTask',
    summary: 'Queue a task for the integration',
    description:
      "With the integration's own token only. The script receives a `task` event with the " +
      'payload after `schedule` seconds; the event is recorded with the others.',
  })
  @ApiNoContentResponse({ description: 'Queued.' })
  @ApiBadRequestResponse({ type: ErrorBody, description: 'Invalid input.' })
  async queue(
    @Granted() access: ResolvedAccess<Integration>,
    @Body() body: QueueIntegrationTaskDto,
  ): Promise<void> {
    await this.tasks.queue(access.entity!, body.task, body.schedule);
  }
}

import { Injectable } from '@nestjs/common';
import { UrlBuilder } from '../../platform/urls/url-builder';
import { AgentInstructionsResponse } from './dto/agent-instructions.dto';
import { AgentInstructions } from './entities/agent-instructions.entity';

@Injectable()
export class AgentInstructionsPresenter {
  constructor(private readonly urls: UrlBuilder) {}

  present(instructions: AgentInstructions): AgentInstructionsResponse {
    return {
      object: 'agent-instructions',
      instructions: instructions.instructions,
      updatedAt: instructions.updatedAt.toISOString(),
      // GitBook requires a string: "" when never written or when the writer was deleted.
      updatedBy: instructions.updatedBy ?? '',
      urls: {
        location: this.urls.api('orgs', instructions.organizationId, 'agent-instructions'),
      },
    };
  }
}

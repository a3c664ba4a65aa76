import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Clock } from '../../platform/clock/clock';
import { Organization } from '../entities/organization.entity';
import { AgentInstructions } from './entities/agent-instructions.entity';
import { EMPTY_DOCUMENT } from '../../content-engine/documents/document-validation';
import type { JSONDocument } from '../../content-engine/documents/document';

@Injectable()
export class AgentInstructionsService {
  constructor(
    @InjectRepository(AgentInstructions)
    private readonly instructions: Repository<AgentInstructions>,
    private readonly clock: Clock,
  ) {}

  /**
   * The organization's instructions. Never written, they are an empty document that has
   * existed, unchanged and by no one, since the organization was created.
   */
  async get(organization: Organization): Promise<AgentInstructions> {
    const stored = await this.instructions.findOneBy({ organizationId: organization.id });
    return (
      stored ??
      this.instructions.create({
        organizationId: organization.id,
        instructions: EMPTY_DOCUMENT,
        updatedAt: organization.createdAt,
        updatedBy: null,
      })
    );
  }

  /** Replaces the instructions (creating them on the first write). */
  async put(
    organizationId: string,
    userId: string,
    document: JSONDocument,
  ): Promise<AgentInstructions> {
    const written = this.instructions.create({
      organizationId,
      instructions: document,
      updatedAt: this.clock.now(),
      updatedBy: userId,
    });
    // A document's open-ended `data` is beyond TypeORM's partial-entity type; it is stored as is.
    await this.instructions.upsert(written as QueryDeepPartialEntity<AgentInstructions>, [
      'organizationId',
    ]);
    return written;
  }
}

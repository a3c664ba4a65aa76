import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentInstructionsController } from './agent-instructions.controller';
import { AgentInstructionsPresenter } from './agent-instructions.presenter';
import { AgentInstructionsService } from './agent-instructions.service';
import { AgentInstructions } from './entities/agent-instructions.entity';

/** An organization's instructions for the Docs agent: one rich document per organization. */
@Module({
  imports: [TypeOrmModule.forFeature([AgentInstructions])],
  controllers: [AgentInstructionsController],
  providers: [AgentInstructionsService, AgentInstructionsPresenter],
  exports: [AgentInstructionsService],
})
export class AgentInstructionsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MembersModule } from '../members/members.module';
import { TeamMember } from './entities/team-member.entity';
import { Team } from './entities/team.entity';
import { TeamMembersController } from './team-members.controller';
import { TeamMembersService } from './team-members.service';
import { TeamsController } from './teams.controller';
import { TeamsPresenter } from './teams.presenter';
import { TeamAccessPolicy } from './team-access';
import { TeamsRepository } from './teams.repository';
import { TeamsService } from './teams.service';

/**
 * Teams of an organization and who is in them. Exports the service (`findInOrganization`) and
 * the presenter (`presentTeams`) for modules that point at teams, such as SAML providers.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Team, TeamMember]), MembersModule],
  controllers: [TeamsController, TeamMembersController],
  providers: [TeamsService, TeamMembersService, TeamsPresenter, TeamsRepository, TeamAccessPolicy],
  exports: [TeamsService, TeamsPresenter],
})
export class TeamsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Team } from '../teams/entities/team.entity';
import { TeamsModule } from '../teams/teams.module';
import { SamlProvider } from './entities/saml-provider.entity';
import { SamlProvidersController } from './saml-providers.controller';
import { SamlProvidersPresenter } from './saml-providers.presenter';
import { SamlProvidersService } from './saml-providers.service';

/** An organization's SAML identity providers and the sign-in choices they offer members. */
@Module({
  imports: [TypeOrmModule.forFeature([SamlProvider, Team]), TeamsModule],
  controllers: [SamlProvidersController],
  providers: [SamlProvidersService, SamlProvidersPresenter],
})
export class SamlModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TeamsModule } from '../teams/teams.module';
import { SamlProvider } from './entities/saml-provider.entity';
import { SamlProvidersController } from './saml-providers.controller';
import { SamlProvidersPresenter } from './saml-providers.presenter';
import { SamlProvidersRepository } from './saml-providers.repository';
import { SamlProvidersService } from './saml-providers.service';

/**
 * An organization's SAML identity providers and the sign-in choices they offer members. The
 * sign-in itself (metadata, start, assertion consumer) is `sign-in/saml`'s.
 */
@Module({
  imports: [TypeOrmModule.forFeature([SamlProvider]), TeamsModule],
  controllers: [SamlProvidersController],
  providers: [SamlProvidersService, SamlProvidersPresenter, SamlProvidersRepository],
  exports: [SamlProvidersService, SamlProvidersPresenter],
})
export class SamlModule {}

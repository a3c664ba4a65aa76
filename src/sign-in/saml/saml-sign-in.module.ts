import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InvitesModule } from '../../invites/invites.module';
import { MembersModule } from '../../orgs/members/members.module';
import { OrgsModule } from '../../orgs/orgs.module';
import { SamlModule } from '../../orgs/saml/saml.module';
import { TeamsModule } from '../../orgs/teams/teams.module';
import { UsersModule } from '../../users/users.module';
import { SamlAssertion } from './entities/saml-assertion.entity';
import { SamlRequest } from './entities/saml-request.entity';
import { SsoSignInCode } from './entities/sso-sign-in-code.entity';
import { SamlSignInController } from './saml-sign-in.controller';
import { SamlSignInRepository } from './saml-sign-in.repository';
import { SamlSignInService } from './saml-sign-in.service';

/**
 * SAML single sign-on with an organization's providers (orgs/saml holds their settings): the
 * service-provider metadata, the start URL, the assertion consumer and sign-in codes.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SamlRequest, SamlAssertion, SsoSignInCode]),
    SamlModule,
    OrgsModule,
    MembersModule,
    TeamsModule,
    UsersModule,
    InvitesModule,
  ],
  controllers: [SamlSignInController],
  providers: [SamlSignInService, SamlSignInRepository],
})
export class SamlSignInModule {}

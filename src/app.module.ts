import { AnswersModule } from './answers/answers.module';
import { AuditModule } from './audit/audit.module';
import { ChangeRequestsModule } from './change-requests/change-requests.module';
import { CollectionsModule } from './collections/collections.module';
import { CommentsModule } from './comments/comments.module';
import { ConversationsModule } from './conversations/conversations.module';
import { DynamicModule, Module } from '@nestjs/common';
import { GitModule } from './git/git.module';
import { ImportsModule } from './imports/imports.module';
import { IntegrationsModule } from './integrations/integrations.module';
import { IntegrationInstallationsModule } from './integrations/installations/installations.module';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AgentInstructionsModule } from './orgs/agent-instructions/agent-instructions.module';
import { StorageModule } from './orgs/storage/storage.module';
import { OpenAPIModule } from './openapi/openapi.module';
import { InvitesModule } from './invites/invites.module';
import { InvitationsModule } from './sign-in/invitations/invitations.module';
import { MembersModule } from './orgs/members/members.module';
import { OrgsModule } from './orgs/orgs.module';
import { SamlModule } from './orgs/saml/saml.module';
import { TeamsModule } from './orgs/teams/teams.module';
import { AccessGuard } from './platform/auth/access.guard';
import { AppConfig } from './platform/config/app-config';
import type { DatabaseTarget } from './platform/database/database';
import { AllExceptionsFilter } from './platform/errors/all-exceptions.filter';
import { PlatformModule } from './platform/platform.module';
import { EmailPrivacyInterceptor } from './platform/policy/email-privacy.interceptor';
import { TokenThrottlerGuard } from './platform/rate-limit/rate-limit';
import { RequestBodyInterceptor } from './platform/validation/request-body';
import { SeedModule } from './seed/seed.module';
import { SamlSignInModule } from './sign-in/saml/saml-sign-in.module';
import { SitesModule } from './sites/sites.module';
import { UrlsModule } from './urls/urls.module';
import { SpacesModule } from './spaces/spaces.module';
import { TranslationsModule } from './translations/translations.module';
import { UsersModule } from './users/users.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Domain modules, one per area of the API. A new area is one more import here. */
const DOMAIN_MODULES = [
  UsersModule,
  OrgsModule,
  MembersModule,
  TeamsModule,
  SamlModule,
  InvitesModule,
  InvitationsModule,
  AgentInstructionsModule,
  StorageModule,
  CollectionsModule,
  SpacesModule,
  ChangeRequestsModule,
  CommentsModule,
  SitesModule,
  OpenAPIModule,
  TranslationsModule,
  ConversationsModule,
  GitModule,
  ImportsModule,
  AuditModule,
  WebhooksModule,
  IntegrationsModule,
  IntegrationInstallationsModule,
  SamlSignInModule,
  AnswersModule,
  UrlsModule,
  SeedModule,
];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, database: DatabaseTarget): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forRoot(config, database), ...DOMAIN_MODULES],
      providers: [
        // Order matters: rate limit, then authentication and access, for every route.
        { provide: APP_GUARD, useClass: TokenThrottlerGuard },
        { provide: APP_GUARD, useClass: AccessGuard },
        // Interceptors run after the guards (bodies are read only for allowed requests), each
        // on the routes it applies to (bound by configureApp: route-interceptors.ts).
        RequestBodyInterceptor,
        EmailPrivacyInterceptor,
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}

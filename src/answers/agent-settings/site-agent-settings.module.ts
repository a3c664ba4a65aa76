import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SitesModule } from '../../sites/sites.module';
import { SiteAgentSettings } from './entities/site-agent-settings.entity';
import { SiteAgentSettingsController } from './site-agent-settings.controller';
import { SiteAgentSettingsPresenter } from './site-agent-settings.presenter';
import { SiteAgentSettingsService } from './site-agent-settings.service';

/** A site's agent settings (GitBook's `SiteAgentSettings`), stored per site. */
@Module({
  imports: [TypeOrmModule.forFeature([SiteAgentSettings]), SitesModule],
  controllers: [SiteAgentSettingsController],
  providers: [SiteAgentSettingsService, SiteAgentSettingsPresenter],
})
export class SiteAgentSettingsModule {}

import { Module } from '@nestjs/common';
import { ContentEngineModule } from '../content-engine/content-engine.module';
import { OrgsModule } from '../orgs/orgs.module';
import { SpacesModule } from '../spaces/spaces.module';
import { UsersModule } from '../users/users.module';
import { DemoSeedRepository } from './demo-seed.repository';
import { DemoSeed } from './demo-seed.service';

@Module({
  imports: [ContentEngineModule, UsersModule, OrgsModule, SpacesModule],
  providers: [DemoSeed, DemoSeedRepository],
  exports: [DemoSeed],
})
export class SeedModule {}

import { Module } from '@nestjs/common';
import { OrgsModule } from '../orgs/orgs.module';
import { SpacesModule } from '../spaces/spaces.module';
import { UsersModule } from '../users/users.module';
import { DemoSeed } from './demo-seed.service';

@Module({
  imports: [UsersModule, OrgsModule, SpacesModule],
  providers: [DemoSeed],
  exports: [DemoSeed],
})
export class SeedModule {}

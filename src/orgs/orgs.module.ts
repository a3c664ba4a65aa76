import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Member } from './entities/member.entity';
import { Organization } from './entities/organization.entity';
import { OrganizationAccessResolver } from './organization-access.resolver';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsPresenter } from './organizations.presenter';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

/** Organizations and their members; decides organization access for the policy. */
@Module({
  imports: [TypeOrmModule.forFeature([Organization, Member])],
  controllers: [OrganizationsController],
  providers: [
    OrganizationsService,
    OrganizationsPresenter,
    OrganizationAccessResolver,
    OrganizationsRepository,
  ],
  exports: [OrganizationsService, OrganizationsPresenter, OrganizationsRepository],
})
export class OrgsModule {}

import { ApiProperty } from '@nestjs/swagger';
import { IsFQDN } from 'class-validator';
import { OrganizationResponse } from '../../orgs/dto/organization.response';

export class EmailDomainParamsDto {
  @ApiProperty({ example: 'example.com' })
  @IsFQDN({}, { message: 'emailDomain must be a domain name' })
  emailDomain!: string;
}

export class OrganizationsForEmailDomainResponse {
  @ApiProperty({ type: [OrganizationResponse] }) organizations!: OrganizationResponse[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsFQDN,
  IsIn,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
import {
  COMMUNITY_TYPES,
  ORGANIZATION_TYPES,
  ORGANIZATION_USE_CASES,
} from './organization.response';
import { Chars } from '../../platform/validation/chars';
import { PresentNotNull } from '../../platform/validation/present-not-null';

export class OnboardingPreferencesDto {
  @ApiProperty({ enum: ['markdown-in-git', 'import', 'template'], nullable: true })
  @IsOptional()
  @IsIn(['markdown-in-git', 'import', 'template'])
  source!: string | null;

  @ApiProperty({ enum: ['public', 'mixed', 'protected', 'internal'], nullable: true })
  @IsOptional()
  @IsIn(['public', 'mixed', 'protected', 'internal'])
  audience!: string | null;

  @ApiProperty({ enum: ['adaptive-content', 'api-docs', 'proactive-agent'], isArray: true })
  @IsArray()
  @IsIn(['adaptive-content', 'api-docs', 'proactive-agent'], { each: true })
  interests!: string[];
}

/** GitBook's `CreateOrganization` (0.202.0), plus 0.146.0's `type`, `useCase`, `communityType`. */
export class CreateOrganizationDto {
  @ApiProperty({ minLength: 2, maxLength: 255, example: 'Acme Docs' })
  @IsString()
  @Chars(2, 255)
  title!: string;

  @ApiPropertyOptional({
    type: [String],
    description: 'Users with a verified email in these domains may join.',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsFQDN({}, { each: true })
  emailDomains?: string[];

  @ApiPropertyOptional({ enum: ORGANIZATION_TYPES, default: 'business' })
  @IsOptional()
  @IsIn(ORGANIZATION_TYPES)
  type?: (typeof ORGANIZATION_TYPES)[number];

  @ApiPropertyOptional({ enum: ORGANIZATION_USE_CASES })
  @IsOptional()
  @IsIn(ORGANIZATION_USE_CASES)
  useCase?: string;

  @ApiPropertyOptional({ enum: COMMUNITY_TYPES })
  @IsOptional()
  @IsIn(COMMUNITY_TYPES)
  communityType?: string;

  @ApiPropertyOptional({ type: OnboardingPreferencesDto })
  @PresentNotNull()
  @ValidateNested()
  @Type(() => OnboardingPreferencesDto)
  onboardingPreferences?: OnboardingPreferencesDto;
}

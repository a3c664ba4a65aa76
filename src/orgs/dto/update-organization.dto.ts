import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsFQDN,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  ValidateNested,
} from 'class-validator';
import { ROLES, type Role } from '../../platform/policy/roles';
import type { MergeRulesConfiguration } from '../entities/organization.entity';
import { IsMergeRules } from './merge-rules';
import { PresentNotNull } from '../../platform/validation/present-not-null';
import { Chars, MaxChars } from '../../platform/validation/chars';

/** GitBook's `Subdomain` pattern: 3 to 32 characters, no leading or trailing hyphen. */
export const HOSTNAME_PATTERN = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class DefaultContentDto {
  @ApiPropertyOptional({ enum: ['site'] })
  @IsIn(['site'])
  type!: 'site';

  @ApiPropertyOptional({ description: 'Id of a site of the organization.' })
  @IsString()
  @Chars(1, 64)
  site!: string;
}

/** GitBook's `updateOrganizationById` body: every field optional, absent = unchanged. */
export class UpdateOrganizationDto {
  @ApiPropertyOptional({ minLength: 2, maxLength: 255 })
  @PresentNotNull()
  @Transform(trim)
  @IsString()
  @Chars(2, 255)
  title?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Users whose email is in one of these domains may join (stored lower-cased, once each).',
  })
  @PresentNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsFQDN({}, { each: true })
  emailDomains?: string[];

  @ApiPropertyOptional({
    nullable: true,
    minLength: 3,
    maxLength: 32,
    pattern: HOSTNAME_PATTERN.source,
    description: 'Default host of public content, unique across organizations; null clears it.',
  })
  @IsOptional()
  @IsString()
  @Matches(HOSTNAME_PATTERN, {
    message:
      'hostname must be 3 to 32 lower-case letters, digits or hyphens, not starting or ending with a hyphen',
  })
  hostname?: string | null;

  @ApiPropertyOptional({
    enum: ROLES,
    nullable: true,
    description: 'null: new members are guests.',
  })
  @IsOptional()
  @IsIn(ROLES)
  defaultRole?: Role | null;

  @ApiPropertyOptional({ type: DefaultContentDto, nullable: true, description: 'null clears it.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => DefaultContentDto)
  defaultContent?: DefaultContentDto | null;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: 2048,
    nullable: true,
    description: 'Logo URL; null clears it.',
  })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'logo must be an http or https URL' },
  )
  logo?: string | null;

  @ApiPropertyOptional({ description: 'Enforce SSO organization-wide.' })
  @PresentNotNull()
  @IsBoolean()
  sso?: boolean;

  @ApiPropertyOptional({ description: 'Enable AI features.' })
  @PresentNotNull()
  @IsBoolean()
  ai?: boolean;

  @ApiPropertyOptional({ description: 'Let invite links work.' })
  @PresentNotNull()
  @IsBoolean()
  inviteLinks?: boolean;

  @ApiPropertyOptional({
    description:
      '`{type: "none"}` or `{type: "rules", rules: [MergeRule]}`. Rules: ' +
      '`{rule: "require_specific_reviewers" | "require_one_of_specific_reviewers" | "allow_bypass", users: [userId]}` ' +
      '(members of the organization), `{rule: "require_at_least_one_review" | "require_all_reviews_approved" | ' +
      '"require_agent_review" | "require_up_to_date_change_request" | "require_change_request_subject" | ' +
      '"require_change_request_description"}`, or `{rule: "custom", expression}` (at most 1024 characters).',
    type: 'object',
    additionalProperties: true,
    example: { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] },
  })
  @PresentNotNull()
  @IsMergeRules()
  mergeRules?: MergeRulesConfiguration;
}

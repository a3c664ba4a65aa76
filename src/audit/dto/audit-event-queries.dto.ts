import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Max, Min } from 'class-validator';
import { PageQueryDto } from '../../platform/pagination/page-query.dto';
import { MaxChars } from '../../platform/validation/chars';

export const MAX_AUDIT_EVENTS_PAGE = 100;

/** `listOrganizationAuditEvents`' query. */
export class ListAuditEventsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Number of events to return, up to 100.',
    type: 'integer',
    minimum: 1,
    maximum: MAX_AUDIT_EVENTS_PAGE,
    default: 20,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_AUDIT_EVENTS_PAGE)
  override limit?: number = undefined;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Include events occurring at or after this time.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Include events occurring at or before this time.',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ description: 'Filter by an exact audit action name.' })
  @IsOptional()
  @IsString()
  @MaxChars(100)
  action?: string;

  @ApiPropertyOptional({
    description:
      'Filter by an exact stable actor identifier (a user id, or `admin` for the instance administrator).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(64)
  actor?: string;

  @ApiPropertyOptional({ description: 'Filter by an exact stable target identifier.' })
  @IsOptional()
  @IsString()
  @MaxChars(256)
  target?: string;
}

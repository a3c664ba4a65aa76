import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MaxChars } from '../validation/chars';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;

/** `page` and `limit`, shared by every list; extend it with the list's own filters. */
export class PageQueryDto {
  @ApiPropertyOptional({
    description: 'Identifier of the page of results to fetch (from `next.page`).',
  })
  @IsOptional()
  @IsString()
  @MaxChars(2048)
  page?: string;

  @ApiPropertyOptional({
    description: 'Number of results per page.',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;
}

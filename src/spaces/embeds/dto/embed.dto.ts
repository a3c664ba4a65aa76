import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUrl } from 'class-validator';
import { MaxChars } from '../../../platform/validation/chars';

export class EmbedQueryDto {
  @ApiProperty({ description: 'URL to resolve: an absolute http or https URL.', maxLength: 2048 })
  @IsString()
  @MaxChars(2048)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'url must be an http or https URL' },
  )
  url!: string;
}

/** GitBook's `Embed`: Bindery answers only its `link` variant (no third-party HTML). */
export class EmbedResponse {
  @ApiProperty({
    enum: ['link'],
    description: 'Always `link`: Bindery never passes on HTML of another site (`rich`).',
  })
  type!: 'link';
  @ApiProperty({
    description: "The page's OpenGraph or Twitter title, else its <title>, else its URL's.",
  })
  title!: string;
  @ApiProperty({ description: "The page's OpenGraph site name, else its host." }) site!: string;
  @ApiPropertyOptional({ format: 'uri', description: 'The icon the page declares, if any.' })
  icon?: string;
}

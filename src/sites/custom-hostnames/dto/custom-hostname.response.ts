import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CUSTOM_HOSTNAME_STATUSES, type CustomHostnameStatus } from '../../entities/site.entity';

/** GitBook's `SitePointer`: what a custom hostname points to (in Bindery, always a site). */
export class CustomHostnameTarget {
  @ApiProperty({ enum: ['site'] }) type!: 'site';
  @ApiProperty({ description: 'The site the hostname serves.' }) site!: string;
}

class CustomHostnameUrls {
  @ApiProperty({ format: 'uri', description: 'The custom hostname in the API.' })
  location!: string;
}

/** GitBook's `CustomHostname`. */
export class CustomHostnameResponse {
  @ApiProperty({ enum: ['custom-hostname'] }) object!: 'custom-hostname';

  @ApiProperty({ maxLength: 512, example: 'docs.example.com' }) hostname!: string;

  @ApiProperty({ type: CustomHostnameTarget }) target!: CustomHostnameTarget;

  @ApiProperty({
    description:
      'Whether the published lookup serves the site on this hostname: its DNS check found it ' +
      '`live`.',
  })
  isActive!: boolean;

  @ApiPropertyOptional({
    enum: CUSTOM_HOSTNAME_STATUSES,
    description:
      'The last DNS check: `live` (a CNAME to CUSTOM_HOSTNAME_CNAME_TARGET, or the TXT record ' +
      '`bindery-site=<siteId>` at `_bindery.<hostname>`), `dns_wrong_cname` (a CNAME to another ' +
      'host), `dns_no_cname` (neither record), `internal_error` (the DNS servers did not ' +
      'answer). Absent until the hostname has been checked.',
  })
  status?: CustomHostnameStatus;

  @ApiProperty({ type: CustomHostnameUrls }) urls!: CustomHostnameUrls;
}

import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/** Absolute links for `urls` objects: `location` (API, PUBLIC_URL) and `app` (APP_URL). */
@Injectable()
export class UrlBuilder {
  constructor(private readonly config: AppConfig) {}

  /** `api('orgs', id)` → `https://api.example.com/v1/orgs/<id>` */
  api(...segments: string[]): string {
    return `${this.config.publicUrl}/v1/${segments.map(encodeURIComponent).join('/')}`;
  }

  /** `app('o', id)` → `https://app.example.com/o/<id>` */
  app(...segments: string[]): string {
    return `${this.config.appUrl}/${segments.map(encodeURIComponent).join('/')}`;
  }
}

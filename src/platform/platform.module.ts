import { DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminToken } from './auth/admin-token';
import { IntegrationTokens } from './auth/integration-tokens';
import { SiteTokens } from './auth/site-tokens';
import { BlobStoreModule, type BlobStoreOptions } from './blob-store/blob-store.module';
import { Clock } from './clock/clock';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import type { DatabaseTarget } from './database/database';
import { DatabaseModule } from './database/database.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { JobsModule } from './jobs/jobs.module';
import { LoggingModule } from './logging/logging.module';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './metrics/metrics.module';
import { OutboundHttpModule } from './outbound-http/outbound-http.module';
import { PolicyService } from './policy/policy.service';
import { RateLimitModule } from './rate-limit/rate-limit';
import { SettingsModule } from './settings/settings.module';
import { UrlBuilder } from './urls/url-builder';

/** Cross-cutting services every domain module may inject. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, database: DatabaseTarget): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        ConfigModule.forRoot(config),
        DiscoveryModule,
        DatabaseModule.forRoot(database, config.DATABASE_PREPARED_STATEMENTS),
        JobsModule.forRoot(database.url),
        LoggingModule,
        RateLimitModule,
        SettingsModule,
        EventsModule,
        MailModule,
        HealthModule,
        MetricsModule,
        BlobStoreModule.register(blobStoreOptions(config)),
        OutboundHttpModule.register({
          timeoutMs: config.OUTBOUND_TIMEOUT_MS,
          maxBytes: config.OUTBOUND_MAX_BYTES,
          allowPrivate: config.OUTBOUND_ALLOW_PRIVATE,
        }),
      ],
      providers: [Clock, UrlBuilder, PolicyService, AdminToken, SiteTokens, IntegrationTokens],
      exports: [
        Clock,
        UrlBuilder,
        PolicyService,
        AdminToken,
        SiteTokens,
        IntegrationTokens,
        BlobStoreModule,
        OutboundHttpModule,
        // The throttler's storage: other limits (answers) count in the same store.
        RateLimitModule,
      ],
    };
  }
}

function blobStoreOptions(config: AppConfig): BlobStoreOptions {
  if (config.BLOB_STORE === 's3') {
    const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
    return {
      s3: {
        // loadConfig requires S3_BUCKET with BLOB_STORE=s3.
        bucket: config.S3_BUCKET!,
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
        prefix: config.s3KeyPrefix,
      },
    };
  }
  // In memory (DATA_DIR=memory), blobs go to a folder of this process's, removed when it stops.
  return config.inMemory
    ? { root: mkdtempSync(join(tmpdir(), 'bindery-blobs-')), temporary: true }
    : { root: join(config.DATA_DIR, 'blobs') };
}

import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { OutboundHttp } from '../outbound-http';
import { RENDERER_HTTP, Revalidation } from './revalidation.service';

/** Most of what the renderer answers is tiny (`{"success": true}`); more is not read. */
const RENDERER_MAX_BYTES = 64 * 1024;

/**
 * Revalidation of the site renderer's cache. The renderer has a client of its own: the shared
 * OutboundHttp refuses private addresses unless OUTBOUND_ALLOW_PRIVATE, to keep the URLs users
 * give (specs, Git remotes, files) off the internal network, while the renderer usually sits on
 * that network (beside Bindery, on localhost, in the same cluster). Its address is no user's:
 * the operator sets RENDERER_URL, as they set DATABASE_URL, so it is reached wherever it is,
 * without opening private addresses to the URLs users give. It follows no redirect (a request
 * signed for the renderer goes to the renderer only), and keeps OUTBOUND_TIMEOUT_MS.
 */
@Module({
  providers: [
    Revalidation,
    {
      provide: RENDERER_HTTP,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new OutboundHttp({
          timeoutMs: config.OUTBOUND_TIMEOUT_MS,
          maxBytes: RENDERER_MAX_BYTES,
          allowPrivate: true,
          maxRedirects: 0,
        }),
    },
  ],
  exports: [Revalidation],
})
export class RevalidationModule {}

import { type DynamicModule, Module } from '@nestjs/common';
import { OUTBOUND_HTTP_OPTIONS, type OutboundHttpOptions } from './outbound-http.constants';
import { OutboundHttp } from './outbound-http.service';

@Module({})
export class OutboundHttpModule {
  static register(options: OutboundHttpOptions): DynamicModule {
    return {
      module: OutboundHttpModule,
      providers: [{ provide: OUTBOUND_HTTP_OPTIONS, useValue: options }, OutboundHttp],
      exports: [OutboundHttp],
    };
  }
}

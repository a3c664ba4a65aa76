export { isPublicAddress } from './address-policy';
export { OUTBOUND_HTTP_OPTIONS, type OutboundHttpOptions } from './outbound-http.constants';
export { OutboundHttpError, type OutboundHttpErrorCode } from './outbound-http.error';
export { OutboundHttpModule } from './outbound-http.module';
export {
  OutboundHttp,
  type OutboundHttpMethod,
  type OutboundRelayInit,
  type OutboundRequestInit,
  type OutboundResponse,
  type OutboundStreamInit,
  type OutboundStreamResponse,
} from './outbound-http.service';

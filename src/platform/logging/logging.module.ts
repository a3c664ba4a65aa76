import { Global, Module } from '@nestjs/common';
import { PinoLoggerService } from './pino-logger.service';

/** pino logs on stdout (JSON, or pretty for a terminal: LOG_FORMAT); `requestLogging` adds one line per request. */
@Global()
@Module({
  providers: [PinoLoggerService],
  exports: [PinoLoggerService],
})
export class LoggingModule {}

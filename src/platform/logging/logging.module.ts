import { Global, Module } from '@nestjs/common';
import { PinoLoggerService } from './pino-logger.service';

/** pino JSON logs on stdout; `requestLogging` adds one line per request. */
@Global()
@Module({
  providers: [PinoLoggerService],
  exports: [PinoLoggerService],
})
export class LoggingModule {}

import { Inject, Injectable, LoggerService, Optional } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { REDACTED, SECRET_HEADER_PATHS } from './redact';

/** Where log lines go instead of stdout, when a module provides it (tests). */
export const LOG_DESTINATION = Symbol('bindery:log-destination');

/**
 * Nest's logger on pino: application logs and request logs share one JSON stream. Nest calls
 * `log(message, ...params, context)`; a message may be an object (fields) followed by a text.
 */
@Injectable()
export class PinoLoggerService implements LoggerService {
  readonly pino: Logger;

  /** `destination`: where lines go (stdout unless given; tests capture them). */
  constructor(
    config: AppConfig,
    @Optional() @Inject(LOG_DESTINATION) destination?: pino.DestinationStream,
  ) {
    this.pino = pino(
      { level: config.LOG_LEVEL, redact: { paths: SECRET_HEADER_PATHS, censor: REDACTED } },
      destination,
    );
  }

  log(message: unknown, ...params: unknown[]) {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]) {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]) {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]) {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]) {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]) {
    this.write('fatal', message, params);
  }

  private write(level: pino.Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    // Nest appends the context (the Logger's name) as the last string parameter.
    const context =
      params.length > 0 && typeof params[params.length - 1] === 'string' ? params.pop() : undefined;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...message }, typeof params[0] === 'string' ? params[0] : '');
    } else {
      // Nest's error(message, stack) form.
      if (typeof params[0] === 'string' && level === 'error') fields.stack = params[0];
      this.pino[level](fields, String(message));
    }
  }
}

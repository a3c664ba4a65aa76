import { Inject, Injectable, LoggerService, Optional } from '@nestjs/common';
import pino, { Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { AppConfig, LogFormat } from '../config/app-config';
import { REDACTED, SECRET_HEADER_PATHS } from './redact';

/** Where log lines go instead of stdout, when a module provides it (tests). */
export const LOG_DESTINATION = Symbol('bindery:log-destination');

/**
 * Nest's own start-up narration: a line per module loaded and per route mapped (some 400 on a
 * start). Logged at debug, so that at info a start shows what matters (the migrations, warnings,
 * the banner); their warnings and errors keep their level.
 */
export const NEST_START_CONTEXTS: ReadonlySet<string> = new Set([
  'NestFactory',
  'NestApplication',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'RouterModule',
  'ModuleRef',
]);

/**
 * stdout as pino writes it: JSON lines, or one readable line per entry (pino-pretty) for a
 * terminal. Both write synchronously, so every line of a start is out before the banner that
 * `main.ts` writes last, and nothing is left in a buffer when the process exits.
 */
export function logDestination(
  format: LogFormat,
  output: pino.DestinationStream = pino.destination({ dest: 1, sync: true }),
): pino.DestinationStream {
  if (format === 'json') return output;
  const prettify = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    // A request's method, route and status are in its message already.
    ignore: 'pid,hostname,context,req,res',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
  });
  return { write: (line: string) => output.write(prettify(line)) };
}

/**
 * Nest's logger on pino: application logs and request logs share one stream (JSON, or pretty
 * for a terminal: LOG_FORMAT). Nest calls `log(message, ...params, context)`; a message may be
 * an object (fields) followed by a text.
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
      destination ?? logDestination(config.logFormat),
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

  private write(requested: pino.Level, message: unknown, params: unknown[]): void {
    // Nest appends the context (the Logger's name) as the last string parameter.
    const context =
      params.length > 0 && typeof params[params.length - 1] === 'string'
        ? (params.pop() as string)
        : undefined;
    const level =
      requested === 'info' && context !== undefined && NEST_START_CONTEXTS.has(context)
        ? 'debug'
        : requested;
    if (!this.pino.isLevelEnabled(level)) return;
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

import { loadConfig } from '../config/app-config';
import { PinoLoggerService } from './pino-logger.service';

describe('PinoLoggerService', () => {
  const service = new PinoLoggerService(loadConfig({ LOG_LEVEL: 'debug' }));
  const spy = (level: 'info' | 'error' | 'debug' | 'trace') =>
    jest.spyOn(service.pino, level).mockImplementation(() => undefined);
  afterEach(() => jest.restoreAllMocks());

  it('logs a text with the context Nest appends', () => {
    const info = spy('info');
    service.log('Starting Nest application...', 'NestFactory');
    expect(info).toHaveBeenCalledWith({ context: 'NestFactory' }, 'Starting Nest application...');
  });

  it('logs fields and a text, as the error filter does', () => {
    const error = spy('error');
    const failure = new Error('boom');
    service.error({ err: failure, requestId: 'r-1' }, 'Unexpected failure', 'Errors');
    expect(error).toHaveBeenCalledWith(
      { context: 'Errors', err: failure, requestId: 'r-1' },
      'Unexpected failure',
    );
  });

  it("keeps the stack of Nest's error(message, stack, context) form", () => {
    const error = spy('error');
    service.error('Job failed', 'Error: x\n    at y', 'Jobs');
    expect(error).toHaveBeenCalledWith(
      { context: 'Jobs', stack: 'Error: x\n    at y' },
      'Job failed',
    );
  });

  it('logs an Error as err with its message', () => {
    const error = spy('error');
    const failure = new Error('disk full');
    service.error(failure);
    expect(error).toHaveBeenCalledWith({ err: failure }, 'disk full');
  });

  it('skips levels that are off', () => {
    const quiet = new PinoLoggerService(loadConfig({ LOG_LEVEL: 'warn' }));
    const info = jest.spyOn(quiet.pino, 'info');
    quiet.log('hidden', 'Ctx');
    expect(info).not.toHaveBeenCalled();
  });

  it('maps verbose to trace', () => {
    const trace = spy('trace');
    const verbose = new PinoLoggerService(loadConfig({ LOG_LEVEL: 'trace' }));
    const verboseTrace = jest.spyOn(verbose.pino, 'trace').mockImplementation(() => undefined);
    verbose.verbose('details', 'Ctx');
    expect(verboseTrace).toHaveBeenCalledWith({ context: 'Ctx' }, 'details');
    expect(trace).not.toHaveBeenCalled();
  });
});

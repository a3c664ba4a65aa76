import pino from 'pino';
import { loadConfig } from '../config/app-config';
import { logDestination, PinoLoggerService } from './pino-logger.service';

describe('PinoLoggerService', () => {
  const service = new PinoLoggerService(loadConfig({ LOG_LEVEL: 'debug' }));
  const spy = (level: 'info' | 'error' | 'debug' | 'trace') =>
    jest.spyOn(service.pino, level).mockImplementation(() => undefined);
  afterEach(() => jest.restoreAllMocks());

  it('logs a text with the context Nest appends', () => {
    const info = spy('info');
    service.log('Sending mail through smtp.example.com', 'Mail');
    expect(info).toHaveBeenCalledWith({ context: 'Mail' }, 'Sending mail through smtp.example.com');
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

describe("Nest's start-up lines", () => {
  const service = new PinoLoggerService(loadConfig({ LOG_LEVEL: 'debug' }));
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['InstanceLoader', 'UsersModule dependencies initialized'],
    ['RoutesResolver', 'UsersController {/v1}:'],
    ['RouterExplorer', 'Mapped {/v1/user, GET} route'],
    ['NestFactory', 'Starting Nest application...'],
    ['NestApplication', 'Nest application successfully started'],
  ])('logs %s at debug', (context, text) => {
    const info = jest.spyOn(service.pino, 'info').mockImplementation(() => undefined);
    const debug = jest.spyOn(service.pino, 'debug').mockImplementation(() => undefined);
    service.log(text, context);
    expect(debug).toHaveBeenCalledWith({ context }, text);
    expect(info).not.toHaveBeenCalled();
  });

  it('keeps the level of their warnings and errors', () => {
    const warn = jest.spyOn(service.pino, 'warn').mockImplementation(() => undefined);
    const error = jest.spyOn(service.pino, 'error').mockImplementation(() => undefined);
    service.warn('Something odd', 'NestApplication');
    service.error('Boom', 'Error: boom', 'InstanceLoader');
    expect(warn).toHaveBeenCalledWith({ context: 'NestApplication' }, 'Something odd');
    expect(error).toHaveBeenCalledWith({ context: 'InstanceLoader', stack: 'Error: boom' }, 'Boom');
  });

  it('keeps other contexts at info', () => {
    const info = jest.spyOn(service.pino, 'info').mockImplementation(() => undefined);
    service.log('applied migration 1700000000000-CreateUsers', 'Database');
    expect(info).toHaveBeenCalledWith(
      { context: 'Database' },
      'applied migration 1700000000000-CreateUsers',
    );
  });

  it('writes none of them at the default level (info)', () => {
    const lines: string[] = [];
    const quiet = new PinoLoggerService(loadConfig({}), { write: (line) => lines.push(line) });
    quiet.log('UsersModule dependencies initialized', 'InstanceLoader');
    quiet.log('Mapped {/v1/user, GET} route', 'RouterExplorer');
    quiet.log('database schema up to date (3 migrations)', 'Database');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
      'database schema up to date (3 migrations)',
    ]);
  });
});

describe('log format (LOG_FORMAT)', () => {
  const collect = () => {
    const lines: string[] = [];
    return { lines, output: { write: (line: string) => void lines.push(line) } };
  };
  afterEach(() => jest.restoreAllMocks());

  it('json: one JSON object per line', () => {
    const { lines, output } = collect();
    const logger = pino({}, logDestination('json', output));
    logger.info({ context: 'Database', applied: 2 }, 'hello');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual(
      expect.objectContaining({ level: 30, context: 'Database', applied: 2, msg: 'hello' }),
    );
  });

  it('pretty: one readable line with the level, the context and the message', () => {
    const { lines, output } = collect();
    const logger = pino({}, logDestination('pretty', output));
    logger.warn({ context: 'Database', applied: 2 }, 'hello');
    expect(lines).toHaveLength(1);
    // eslint-disable-next-line no-control-regex
    const text = lines[0].replace(/\u001b\[[0-9;]*m/g, '');
    expect(text).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] WARN: \[Database\] hello \{"applied":2\}\n$/,
    );
    expect(() => JSON.parse(lines[0])).toThrow();
  });

  it.each([
    ['json', { LOG_FORMAT: 'json' }],
    ['pretty', { LOG_FORMAT: 'pretty' }],
  ] as const)('the service writes %s to stdout when LOG_FORMAT says so', (format, env) => {
    const { lines, output } = collect();
    jest.spyOn(pino, 'destination').mockReturnValue(output as never);
    const service = new PinoLoggerService(loadConfig(env));
    service.log('ready', 'Bindery');
    expect(lines).toHaveLength(1);
    if (format === 'json') expect(JSON.parse(lines[0]).msg).toBe('ready');
    else expect(lines[0]).toContain('[Bindery] ready');
  });

  it('is JSON when stdout is not a terminal and LOG_FORMAT is unset, pretty on a terminal', () => {
    const isTTY = process.stdout.isTTY;
    try {
      Object.defineProperty(process.stdout, 'isTTY', { value: undefined, configurable: true });
      expect(loadConfig({}).logFormat).toBe('json');
      Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
      expect(loadConfig({}).logFormat).toBe('pretty');
    } finally {
      Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
    }
  });
});

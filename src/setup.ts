import { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { AppModule } from './app.module';
import { AuditInterceptor } from './audit/audit.interceptor';
import { AdminToken } from './platform/auth/admin-token';
import { assertEveryRouteDeclaresAccess } from './platform/auth/route-access';
import { AppConfig } from './platform/config/app-config';
import { Database, openDatabase } from './platform/database/database';
import { drainHttpServer } from './platform/health/drain';
import { compressResponses, corsOptions, securityHeaders } from './platform/http/browser-edge';
import { trackForegroundRequests } from './platform/http/foreground-requests';
import { indexRoutes } from './platform/http/route-index';
import { bindRouteInterceptors } from './platform/http/route-interceptors';
import { Lifecycle } from './platform/health/lifecycle';
import { JobsService } from './platform/jobs/jobs.service';
import { Metrics } from './platform/metrics/metrics.service';
import {
  EmailPrivacyCheck,
  EmailPrivacyInterceptor,
} from './platform/policy/email-privacy.interceptor';
import { setupSwagger } from './platform/swagger/api-document';
import { stopTracing } from './platform/tracing/tracing';
import { requestLogging } from './platform/logging/request-logging';
import { PinoLoggerService } from './platform/logging/pino-logger.service';
import { rejectNulInRequestTarget } from './platform/validation/request-target.middleware';
import { RequestBodyInterceptor } from './platform/validation/request-body';
import { createValidationPipe } from './platform/validation/validation.pipe';
import { DemoSeed, DemoSeedResult } from './seed/demo-seed.service';

export interface BinderyApp {
  app: INestApplication;
  config: AppConfig;
  database: Database;
  /** Set when this start generated the administrator token (shown once). */
  generatedAdminToken?: string;
  /** Set when this start seeded the demo data. */
  demo?: DemoSeedResult;
  close(): Promise<void>;
}

export interface CreateAppOptions {
  /** Archive to start an empty embedded database from (tests start from a migrated one). */
  template?: Blob;
  /** Builds the Nest application from the root module; tests compile a testing module here. */
  compile?: (root: DynamicModule) => Promise<INestApplication>;
  /**
   * Tests: the routes that run no email privacy fail an answer holding someone's email
   * (EmailPrivacyCheck), so that every e2e test checks which routes it was bound to.
   */
  checkEmailPrivacy?: boolean;
}

const compileDefault = (root: DynamicModule) =>
  NestFactory.create<NestExpressApplication>(root, { bodyParser: false, bufferLogs: true });

/**
 * Everything between "configuration is valid" and "ready to serve": the database (embedded
 * or not), migrations (run by TypeORM as it connects), the Nest application with its pipes,
 * filters and Swagger, the administrator token and the demo seed. `main.ts`, the worker and
 * the test app factory all start through it.
 */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<BinderyApp> {
  const database = await openDatabase(config, { template: options.template });
  let app: INestApplication | undefined;
  try {
    app = await (options.compile ?? compileDefault)(AppModule.forRoot(config, database));
    const routes = configureApp(app as NestExpressApplication, config, options);
    try {
      await app.init(); // modules register their access policies as they initialize
    } finally {
      routes.release();
    }
    indexRoutes((app as NestExpressApplication).getHttpAdapter().getInstance());
    assertEveryRouteDeclaresAccess(app);
    const generatedAdminToken = await app.get(AdminToken).initialize();
    const demo = config.seedDemo ? await app.get(DemoSeed).run() : undefined;
    const started = app;
    started.get(Lifecycle).markReady();
    return {
      app: started,
      config,
      database,
      generatedAdminToken,
      demo,
      close: () => shutDown(started, config, database),
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}

/**
 * In order: readiness answers 503; the HTTP server refuses new connections and lets the
 * requests in flight finish, while job workers end their current job (both within
 * SHUTDOWN_TIMEOUT_MS); then the application closes (pg-boss and the data source with it:
 * the requests that drained could still queue their jobs), then the database (the embedded
 * one checkpoints).
 */
async function shutDown(
  app: INestApplication,
  config: AppConfig,
  database: Database,
): Promise<void> {
  app.get(Lifecycle).markStopping();
  const logger = app.get(PinoLoggerService).pino;
  const server = app.getHttpServer() as Server;
  const [drained] = await Promise.all([
    drainHttpServer(server, config.SHUTDOWN_TIMEOUT_MS),
    app.get(JobsService).stopWorking(),
  ]);
  if (!drained) {
    logger.warn(
      { timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
      'Requests still in flight at the end of SHUTDOWN_TIMEOUT_MS were cut off',
    );
  }
  await app.close();
  await database.close();
}

/** Every API route under /v1; health checks and metrics outside it. */
export function applyRoutePrefix(app: INestApplication): void {
  app.setGlobalPrefix('v1', { exclude: ['health', 'health/ready', 'metrics'] });
}

/**
 * The application's HTTP side, before `app.init()`; answers the route interceptors' binding,
 * to release once init() has built the router (bindRouteInterceptors).
 */
export function configureApp(
  app: NestExpressApplication,
  config: AppConfig,
  options: Pick<CreateAppOptions, 'checkEmailPrivacy'> = {},
): { release(): void } {
  const logger = app.get(PinoLoggerService);
  app.useLogger(logger);
  app.use(trackForegroundRequests());
  app.use(requestLogging(logger.pino));
  app.use(securityHeaders());
  const cors = corsOptions(config);
  if (cors) app.enableCors(cors);
  app.use(compressResponses());
  // Requests are measured only when metrics are on.
  const httpMetrics = app.get(Metrics).http;
  if (httpMetrics) app.use(httpMetrics.middleware());
  // Bodies are read after authentication, by the RequestBodyInterceptor.
  app.use(rejectNulInRequestTarget);
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  applyRoutePrefix(app);
  app.useGlobalPipes(createValidationPipe());
  const document = setupSwagger(app, config.publicUrl);
  limitSlowClients(app.getHttpServer() as Server, config);
  // Each on the routes it applies to, in this order (the body first: access decisions read it).
  const privacy = app.get(EmailPrivacyInterceptor);
  return bindRouteInterceptors(app, document, [
    app.get(RequestBodyInterceptor),
    privacy,
    ...(options.checkEmailPrivacy ? [new EmailPrivacyCheck(privacy)] : []),
    app.get(AuditInterceptor),
  ]);
}

/**
 * Cuts off clients that send their headers or body too slowly (slowloris) and idle keep-alive
 * connections. Node checks these deadlines every `connectionsCheckingInterval`, which takes
 * effect when the server starts listening.
 */
function limitSlowClients(server: Server, config: AppConfig): void {
  server.headersTimeout = config.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  // A documented option of http.createServer, read again on 'listening'; not typed as a property.
  Object.assign(server, {
    connectionsCheckingInterval: Math.min(1000, config.HTTP_HEADERS_TIMEOUT_MS),
  });
}

/**
 * A promise rejection that nothing handled is a defect to log, not a reason to drop every other
 * request in flight, which is what Node's default (ending the process) would do.
 */
export function logUnhandledRejections(bindery: BinderyApp): void {
  const logger = bindery.app.get(PinoLoggerService).pino;
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'Unhandled promise rejection');
  });
}

/**
 * On SIGTERM or SIGINT: drain the requests in flight and the jobs at work, close the
 * application, then the database (see `shutDown`), then send the spans not yet exported when
 * tracing is on (within TRACING_SHUTDOWN_MS); exit 0 once done.
 */
export function closeOnSignals(bindery: BinderyApp): void {
  const stop = async () => {
    const code = await bindery.close().then(
      () => 0,
      () => 1,
    );
    await stopTracing();
    process.exit(code);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

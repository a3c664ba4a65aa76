import { DynamicModule } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/platform/clock/clock';
import { LOG_DESTINATION } from '../../src/platform/logging/pino-logger.service';
import { AppConfig, loadConfig } from '../../src/platform/config/app-config';
import { BinderyApp, createApp } from '../../src/setup';
import { Client } from './client';
import { TestClock } from './clock';
import { freshDatabase } from './database';
import { TestDnsServer } from './dns-server';
import { Factories } from './factories';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123456789abcdef';
export const TEST_PUBLIC_URL = 'http://bindery.test';
export const TEST_SECRET_KEY = 'test-secret-key-0123456789abcdef0123456789abcdef';

export interface TestApp {
  bindery: BinderyApp;
  config: AppConfig;
  server: Server;
  clock: TestClock;
  dataSource: DataSource;
  /** The instance administrator. */
  admin: Client;
  /** No token at all. */
  anonymous: Client;
  as(token: string): Client;
  factories: Factories;
  /**
   * The DNS server the app checks custom hostnames against (DNS_SERVERS): a hostname goes live
   * once the test gives it a CNAME to PUBLIC_URL's host (`t.dns.cname(host, 'bindery.test')`).
   */
  dns: TestDnsServer;
  close(): Promise<void>;
}

/**
 * The whole application, as `main.ts` builds it, on a fresh migrated database of its own.
 * Call once per test file (beforeAll) and close it in afterAll. `modules` adds test-only
 * modules (a route that fails on purpose, a job queue).
 */

/** A global module whose LOG_DESTINATION keeps each line in `lines`. */
function logCapture(lines: Record<string, unknown>[]): DynamicModule {
  const destination = { write: (line: string) => void lines.push(JSON.parse(line)) };
  return {
    module: class LogCaptureModule {},
    global: true,
    providers: [{ provide: LOG_DESTINATION, useValue: destination }],
    exports: [LOG_DESTINATION],
  };
}

export async function createTestApp(
  settings: Record<string, string> = {},
  options: {
    modules?: DynamicModule['imports'];
    /** Collects every log line (parsed JSON) instead of writing it to stdout. */
    logs?: Record<string, unknown>[];
    /**
     * Runs on this PostgreSQL database, made (migrated) and dropped by the caller, instead of a
     * fresh one: several apps on one database act as several processes of one deployment.
     */
    databaseUrl?: string;
    /** Fail an answer holding an email on a route without the email privacy (default: on). */
    checkEmailPrivacy?: boolean;
  } = {},
): Promise<TestApp> {
  const database = options.databaseUrl
    ? { url: options.databaseUrl, template: undefined, drop: async () => undefined }
    : await freshDatabase();
  // Custom hostnames are checked against a DNS server of the test's own, never the network's.
  const dns = new TestDnsServer();
  await dns.start();
  const config = loadConfig({
    DATA_DIR: 'memory',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    PUBLIC_URL: TEST_PUBLIC_URL,
    RATE_LIMIT_PER_MINUTE: '0',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    DATABASE_POOL_SIZE: '5',
    DNS_SERVERS: dns.address,
    // On PostgreSQL the secret must come from the environment (it is never kept in the database).
    ...(database.url ? { DATABASE_URL: database.url, SECRET_KEY: TEST_SECRET_KEY } : {}),
    ...settings,
  });
  const clock = new TestClock();
  const compile = async (root: DynamicModule) => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        root,
        ...(options.modules ?? []),
        ...(options.logs ? [logCapture(options.logs)] : []),
      ],
    })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    return moduleRef.createNestApplication({ bodyParser: false });
  };
  const bindery = await createApp(config, {
    template: database.template,
    compile,
    checkEmailPrivacy: options.checkEmailPrivacy ?? true,
  });
  const server = bindery.app.getHttpServer() as Server;
  const admin = new Client(server, TEST_ADMIN_TOKEN);
  const dataSource = bindery.app.get(DataSource);
  return {
    bindery,
    config,
    server,
    clock,
    dataSource,
    admin,
    anonymous: new Client(server),
    as: (token) => new Client(server, token),
    factories: new Factories(admin, (token) => new Client(server, token), dataSource, clock),
    dns,
    close: async () => {
      await bindery.close();
      await dns.close();
      await database.drop();
    },
  };
}

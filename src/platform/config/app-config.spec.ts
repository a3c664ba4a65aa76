import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { AppConfig, ConfigurationError, loadConfig } from './app-config';

/** Runs `fn`, expecting a ConfigurationError, and returns it. */
function configurationError(fn: () => unknown): ConfigurationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('expected a ConfigurationError, but nothing was thrown');
}

describe('loadConfig', () => {
  describe('defaults', () => {
    const config = loadConfig({});

    it('returns an AppConfig', () => {
      expect(config).toBeInstanceOf(AppConfig);
    });

    it.each([
      ['PORT', 3000],
      ['HOST', '0.0.0.0'],
      ['DATABASE_POOL_SIZE', 10],
      ['DATA_DIR', './.data'],
      ['MIGRATIONS_RUN', true],
      ['TRUST_PROXY', 'loopback'],
      ['LOG_LEVEL', 'info'],
      ['BODY_LIMIT', '256kb'],
      ['BODY_LIMIT_LARGE', '10mb'],
      ['HTTP_HEADERS_TIMEOUT_MS', 20000],
      ['HTTP_REQUEST_TIMEOUT_MS', 120000],
      ['HTTP_KEEP_ALIVE_TIMEOUT_MS', 5000],
      ['RATE_LIMIT_PER_MINUTE', 600],
      ['OUTBOUND_ALLOW_PRIVATE', false],
      ['OUTBOUND_TIMEOUT_MS', 15000],
      ['OUTBOUND_MAX_BYTES', 20 * 1024 * 1024],
      ['JOBS_IN_PROCESS', true],
      ['SEARCH_EXACT_RANK_LIMIT', 1000],
      ['WEBHOOK_TIMEOUT_MS', 10000],
      ['WEBHOOK_RETRY_SCHEDULE', '5,30,120,600,1800,3600,7200,14400,21600,28800'],
      ['EVENT_RETENTION_DAYS', 30],
    ] as const)('%s defaults to %p', (name, expected) => {
      expect(config[name]).toStrictEqual(expected);
    });

    it.each([
      'DATABASE_URL',
      'ADMIN_TOKEN',
      'PUBLIC_URL',
      'APP_URL',
      'SECRET_KEY',
      'RENDERER_URL',
      'RENDERER_SECRET',
    ] as const)('%s is unset by default', (name) => {
      expect(config[name]).toBeUndefined();
    });

    it('uses the embedded database on disk', () => {
      expect(config.embeddedDatabase).toBe(true);
      expect(config.inMemory).toBe(false);
    });

    it('uses process.env when no environment is given', () => {
      const saved = process.env.PORT;
      process.env.PORT = '4321';
      try {
        expect(loadConfig().PORT).toBe(4321);
      } finally {
        if (saved === undefined) delete process.env.PORT;
        else process.env.PORT = saved;
      }
    });
  });

  describe('parsing', () => {
    it.each([
      ['true', true],
      ['TRUE', true],
      ['1', true],
      ['yes', true],
      ['on', true],
      [' true ', true],
      ['false', false],
      ['False', false],
      ['0', false],
      ['no', false],
      ['off', false],
    ])('reads the boolean %p as %p', (raw, expected) => {
      expect(loadConfig({ SEED_DEMO: raw }).seedDemo).toBe(expected);
      expect(loadConfig({ MIGRATIONS_RUN: raw }).MIGRATIONS_RUN).toBe(expected);
      expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: raw }).OUTBOUND_ALLOW_PRIVATE).toBe(expected);
      expect(loadConfig({ JOBS_IN_PROCESS: raw }).JOBS_IN_PROCESS).toBe(expected);
    });

    it('reads integers from strings', () => {
      const config = loadConfig({
        PORT: '8080',
        DATABASE_POOL_SIZE: '25',
        RATE_LIMIT_PER_MINUTE: '0',
        OUTBOUND_TIMEOUT_MS: '2500',
        OUTBOUND_MAX_BYTES: '1024',
      });
      expect(config.PORT).toBe(8080);
      expect(config.DATABASE_POOL_SIZE).toBe(25);
      expect(config.RATE_LIMIT_PER_MINUTE).toBe(0);
      expect(config.OUTBOUND_TIMEOUT_MS).toBe(2500);
      expect(config.OUTBOUND_MAX_BYTES).toBe(1024);
    });

    it('tolerates whitespace around integers', () => {
      expect(loadConfig({ PORT: ' 4000 ' }).PORT).toBe(4000);
    });

    it('accepts the edges of the port range', () => {
      expect(loadConfig({ PORT: '0' }).PORT).toBe(0);
      expect(loadConfig({ PORT: '65535' }).PORT).toBe(65535);
    });

    it('keeps strings as given', () => {
      const config = loadConfig({
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/bindery',
        LOG_LEVEL: 'debug',
        BODY_LIMIT: '512KB',
      });
      expect(config.HOST).toBe('127.0.0.1');
      expect(config.DATA_DIR).toBe('/var/lib/bindery');
      expect(config.LOG_LEVEL).toBe('debug');
      expect(config.BODY_LIMIT).toBe('512KB');
    });

    it('accepts valid optional settings', () => {
      const config = loadConfig({
        DATABASE_URL: 'postgresql://bindery:pw@db:5432/bindery',
        ADMIN_TOKEN: 'a'.repeat(32),
        SECRET_KEY: 's'.repeat(40),
        PUBLIC_URL: 'https://api.example.com',
        APP_URL: 'https://app.example.com',
      });
      expect(config.DATABASE_URL).toBe('postgresql://bindery:pw@db:5432/bindery');
      expect(config.embeddedDatabase).toBe(false);
      expect(config.ADMIN_TOKEN).toBe('a'.repeat(32));
      expect(config.SECRET_KEY).toBe('s'.repeat(40));
    });

    it('accepts postgres:// as well as postgresql://', () => {
      expect(loadConfig({ DATABASE_URL: 'postgres://localhost/db' }).DATABASE_URL).toBe(
        'postgres://localhost/db',
      );
    });

    it.each(['DATABASE_URL', 'ADMIN_TOKEN', 'PUBLIC_URL', 'APP_URL', 'SECRET_KEY'])(
      'treats an empty or blank %s as unset',
      (name) => {
        expect(loadConfig({ [name]: '' })[name as keyof AppConfig]).toBeUndefined();
        expect(loadConfig({ [name]: '   ' })[name as keyof AppConfig]).toBeUndefined();
      },
    );

    it('treats DATA_DIR=memory as in-memory', () => {
      expect(loadConfig({ DATA_DIR: 'memory' }).inMemory).toBe(true);
    });

    it('ignores variables that are not settings', () => {
      const config = loadConfig({ PATH: '/usr/bin', HOME: '/root', port: '1' });
      expect(config).not.toHaveProperty('PATH');
      expect(config).not.toHaveProperty('HOME');
      expect(config.PORT).toBe(3000);
    });

    it('ignores settings whose value is undefined', () => {
      expect(loadConfig({ PORT: undefined }).PORT).toBe(3000);
    });

    it('lets overrides win over the environment', () => {
      const config = loadConfig(
        { PORT: '4000', SEED_DEMO: 'true' },
        { PORT: 5000, SEED_DEMO: false },
      );
      expect(config.PORT).toBe(5000);
      expect(config.SEED_DEMO).toBe(false);
    });

    it('parses string overrides like the environment', () => {
      expect(loadConfig({}, { PORT: '5001', SEED_DEMO: 'off' })).toMatchObject({
        PORT: 5001,
        SEED_DEMO: false,
      });
    });

    it('validates overrides', () => {
      const error = configurationError(() => loadConfig({}, { PORT: -1 }));
      expect(error.message).toContain('PORT');
    });
  });

  describe('bad values', () => {
    it.each([
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['PORT', '3000.5'],
      ['DATABASE_POOL_SIZE', '0'],
      ['DATABASE_POOL_SIZE', '201'],
      ['LOG_LEVEL', 'loud'],
      ['LOG_LEVEL', 'INFO'],
      ['SEED_DEMO', 'maybe'],
      ['MIGRATIONS_RUN', 'sometimes'],
      ['DATABASE_URL', 'mysql://x'],
      ['DATABASE_URL', 'postgres://'],
      ['ADMIN_TOKEN', 'too-short'],
      ['ADMIN_TOKEN', 'a'.repeat(31)],
      ['SECRET_KEY', 'short'],
      ['PUBLIC_URL', 'ftp://x'],
      ['PUBLIC_URL', 'example.com'],
      ['APP_URL', 'ftp://x'],
      ['RENDERER_URL', 'renderer:3000'],
      ['RENDERER_URL', 'ftp://renderer'],
      ['BODY_LIMIT', 'lots'],
      ['BODY_LIMIT', '10gb'],
      ['RATE_LIMIT_PER_MINUTE', '-1'],
      ['OUTBOUND_TIMEOUT_MS', '99'],
      ['OUTBOUND_MAX_BYTES', '1023'],
      ['SEARCH_EXACT_RANK_LIMIT', '0'],
      ['SEARCH_EXACT_RANK_LIMIT', '100001'],
      ['WEBHOOK_TIMEOUT_MS', '99'],
      ['WEBHOOK_RETRY_SCHEDULE', ','],
      ['WEBHOOK_RETRY_SCHEDULE', '5,,30'],
      ['WEBHOOK_RETRY_SCHEDULE', '5m'],
      ['EVENT_RETENTION_DAYS', '0'],
    ])('rejects %s=%p, naming the setting', (name, value) => {
      const error = configurationError(() => loadConfig({ [name]: value }));
      expect(error.name).toBe('ConfigurationError');
      expect(error.problems.length).toBeGreaterThan(0);
      for (const problem of error.problems) expect(problem).toContain(name);
      expect(error.message).toContain(name);
    });

    it('reads the webhook retry schedule in milliseconds', () => {
      expect(loadConfig({}).webhookRetryDelaysMs).toEqual([
        5000, 30000, 120000, 600000, 1800000, 3600000, 7200000, 14400000, 21600000, 28800000,
      ]);
      expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0.5,2' }).webhookRetryDelaysMs).toEqual([
        500, 2000,
      ]);
    });

    it('treats an empty value as the default', () => {
      const config = loadConfig({ PORT: '', DATA_DIR: ' ', JOBS_IN_PROCESS: '', DATABASE_URL: '' });
      expect(config.PORT).toBe(3000);
      expect(config.DATA_DIR).toBe('./.data');
      expect(config.JOBS_IN_PROCESS).toBe(true);
      expect(config.DATABASE_URL).toBeUndefined();
    });

    it.each(['DATABASE_URL', 'ADMIN_TOKEN', 'SECRET_KEY', 'REDIS_URL'])(
      'never echoes the value of %s',
      (name) => {
        const secret = name.endsWith('_URL') ? 'mysql://root:hunter2@db' : 'hunter2';
        const error = configurationError(() => loadConfig({ [name]: secret }));
        expect(error.message).toContain(name);
        expect(error.message).not.toContain('hunter2');
      },
    );

    it('explains each problem in words', () => {
      expect(configurationError(() => loadConfig({ PORT: '70000' })).problems).toContain(
        'PORT must not be greater than 65535 (got 70000)',
      );
      expect(configurationError(() => loadConfig({ DATABASE_URL: 'mysql://x' })).problems).toEqual([
        'DATABASE_URL must be a postgres:// URL',
      ]);
      expect(configurationError(() => loadConfig({ PUBLIC_URL: 'ftp://x' })).problems).toEqual([
        'PUBLIC_URL must be an http(s) URL (got "ftp://x")',
      ]);
    });

    it('reports several bad settings together', () => {
      const error = configurationError(() =>
        loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud', SEED_DEMO: 'maybe', BODY_LIMIT: 'lots' }),
      );
      for (const name of ['PORT', 'LOG_LEVEL', 'SEED_DEMO', 'BODY_LIMIT']) {
        expect(error.problems.some((problem) => problem.startsWith(`${name} `))).toBe(true);
        expect(error.message).toContain(`  - ${name} `);
      }
      expect(error.message.startsWith('Invalid configuration:\n')).toBe(true);
      expect(error.problems.some((problem) => problem.startsWith('HOST'))).toBe(false);
    });
  });

  describe('integrations origin', () => {
    it('takes another hostname than the API and the app', () => {
      const config = loadConfig({
        PUBLIC_URL: 'https://api.example.com',
        INTEGRATIONS_URL: 'https://integrations.example.com/',
      });
      expect(config.integrationsUrl).toBe('https://integrations.example.com');
    });

    it.each([
      [
        { PUBLIC_URL: 'https://api.example.com', INTEGRATIONS_URL: 'https://api.example.com' },
        'PUBLIC_URL and APP_URL',
      ],
      [
        { PUBLIC_URL: 'http://127.0.0.1:3100', INTEGRATIONS_URL: 'http://127.0.0.1:3101' },
        'PUBLIC_URL and APP_URL',
      ],
      [
        {
          PUBLIC_URL: 'https://api.example.com',
          APP_URL: 'https://app.example.com',
          INTEGRATIONS_URL: 'https://app.example.com',
        },
        'APP_URL',
      ],
    ])('refuses the hostname of the API or the app (%j)', (settings, names) => {
      const error = configurationError(() => loadConfig(settings));
      expect(error.problems).toEqual([
        expect.stringContaining(`INTEGRATIONS_URL must be on another hostname than ${names}`),
      ]);
    });
  });

  describe('blob store', () => {
    const s3 = { BLOB_STORE: 's3', S3_BUCKET: 'bindery-blobs' };

    it('keeps blobs on the filesystem by default', () => {
      const config = loadConfig({});
      expect(config.BLOB_STORE).toBe('filesystem');
      expect(config.S3_REGION).toBe('us-east-1');
      expect(config.S3_FORCE_PATH_STYLE).toBe(false);
      expect(config.S3_BUCKET).toBeUndefined();
      expect(config.s3KeyPrefix).toBe('');
    });

    it('reads the S3 settings', () => {
      const config = loadConfig({
        ...s3,
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-west-3',
        S3_ACCESS_KEY_ID: 'bindery',
        S3_SECRET_ACCESS_KEY: 'hunter2-hunter2',
        S3_FORCE_PATH_STYLE: 'yes',
        S3_PREFIX: 'docs/bindery',
      });
      expect(config).toMatchObject({
        BLOB_STORE: 's3',
        S3_BUCKET: 'bindery-blobs',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-west-3',
        S3_ACCESS_KEY_ID: 'bindery',
        S3_SECRET_ACCESS_KEY: 'hunter2-hunter2',
        S3_FORCE_PATH_STYLE: true,
      });
      expect(config.s3KeyPrefix).toBe('docs/bindery/');
      expect(loadConfig({ ...s3, S3_PREFIX: 'bindery/' }).s3KeyPrefix).toBe('bindery/');
    });

    it.each([
      ['BLOB_STORE', 'disk'],
      ['S3_BUCKET', 'a'],
      ['S3_BUCKET', 'my bucket'],
      ['S3_ENDPOINT', 'minio:9000'],
      ['S3_FORCE_PATH_STYLE', 'maybe'],
      ['S3_PREFIX', '/bindery'],
      ['S3_PREFIX', 'a//b'],
      ['S3_PREFIX', '../b'],
    ])('rejects %s=%p, naming the setting', (name, value) => {
      const error = configurationError(() => loadConfig({ ...s3, [name]: value }));
      for (const problem of error.problems) expect(problem).toContain(name);
    });

    it('requires S3_BUCKET with BLOB_STORE=s3', () => {
      expect(configurationError(() => loadConfig({ BLOB_STORE: 's3' })).problems).toEqual([
        'S3_BUCKET is required with BLOB_STORE=s3: the bucket the blobs go in',
      ]);
    });

    it('refuses S3_BUCKET without BLOB_STORE=s3, rather than keeping blobs on the disk', () => {
      expect(configurationError(() => loadConfig({ S3_BUCKET: 'bindery-blobs' })).problems).toEqual(
        [expect.stringMatching(/^S3_BUCKET is set but BLOB_STORE is not s3: /)],
      );
    });

    it.each([{ S3_ACCESS_KEY_ID: 'bindery' }, { S3_SECRET_ACCESS_KEY: 'hunter2-hunter2' }])(
      'wants both S3 keys or neither (%p), never echoing the secret',
      (keys) => {
        const error = configurationError(() => loadConfig({ ...s3, ...keys }));
        expect(error.problems).toEqual([
          expect.stringMatching(/^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/),
        ]);
        expect(error.message).not.toContain('hunter2');
      },
    );
  });

  describe('rate limit store', () => {
    it('counts in the process on the embedded database, in the database with DATABASE_URL', () => {
      expect(loadConfig({}).rateLimitStore).toBe('process');
      expect(loadConfig({}).RATE_LIMIT_STORE).toBeUndefined();
      expect(loadConfig({ DATABASE_URL: 'postgres://db/bindery' }).rateLimitStore).toBe('database');
    });

    it('uses Redis by default once REDIS_URL is set', () => {
      const config = loadConfig({
        DATABASE_URL: 'postgres://db/bindery',
        REDIS_URL: 'redis://:pw@redis:6379/2',
      });
      expect(config.rateLimitStore).toBe('redis');
      expect(config.REDIS_URL).toBe('redis://:pw@redis:6379/2');
    });

    it('takes RATE_LIMIT_STORE as given', () => {
      expect(loadConfig({ RATE_LIMIT_STORE: 'database' }).rateLimitStore).toBe('database');
      expect(
        loadConfig({ DATABASE_URL: 'postgres://db/b', RATE_LIMIT_STORE: 'process' }).rateLimitStore,
      ).toBe('process');
      expect(
        loadConfig({ RATE_LIMIT_STORE: 'redis', REDIS_URL: 'rediss://redis:6380' }).rateLimitStore,
      ).toBe('redis');
    });

    it('requires REDIS_URL with RATE_LIMIT_STORE=redis', () => {
      expect(configurationError(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).problems).toEqual([
        'REDIS_URL is required with RATE_LIMIT_STORE=redis: the Redis server of the rate limit ' +
          'counters, e.g. redis://redis:6379',
      ]);
    });

    it('rejects an unknown store and a URL that is not Redis', () => {
      expect(
        configurationError(() => loadConfig({ RATE_LIMIT_STORE: 'memcached' })).problems[0],
      ).toMatch(/^RATE_LIMIT_STORE must be one of the following values: process, database, redis/);
      expect(configurationError(() => loadConfig({ REDIS_URL: 'http://redis' })).problems).toEqual([
        'REDIS_URL must be a redis:// or rediss:// URL',
      ]);
    });
  });

  describe('rendererUrl', () => {
    it('is undefined when RENDERER_URL is unset: revalidation is off', () => {
      expect(loadConfig({}).rendererUrl).toBeUndefined();
    });

    it('is RENDERER_URL without trailing slashes', () => {
      expect(loadConfig({ RENDERER_URL: 'http://10.0.0.5:3000/' }).rendererUrl).toBe(
        'http://10.0.0.5:3000',
      );
    });
  });

  describe('publicUrl and appUrl', () => {
    it('defaults publicUrl to http://localhost:PORT', () => {
      expect(loadConfig({}).publicUrl).toBe('http://localhost:3000');
      expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    });

    it('uses PUBLIC_URL without trailing slashes', () => {
      expect(loadConfig({ PUBLIC_URL: 'https://api.example.com' }).publicUrl).toBe(
        'https://api.example.com',
      );
      expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe(
        'https://api.example.com',
      );
      expect(loadConfig({ PUBLIC_URL: 'https://example.com/bindery///' }).publicUrl).toBe(
        'https://example.com/bindery',
      );
    });

    it('defaults appUrl to publicUrl', () => {
      expect(loadConfig({}).appUrl).toBe('http://localhost:3000');
      expect(loadConfig({ PUBLIC_URL: 'https://api.example.com/' }).appUrl).toBe(
        'https://api.example.com',
      );
    });

    it('uses APP_URL without trailing slashes', () => {
      const config = loadConfig({
        PUBLIC_URL: 'https://api.example.com',
        APP_URL: 'https://app.example.com/docs/',
      });
      expect(config.appUrl).toBe('https://app.example.com/docs');
      expect(config.publicUrl).toBe('https://api.example.com');
    });
  });
});

describe('.env.example', () => {
  const path = join(__dirname, '..', '..', '..', '.env.example');
  const lines = readFileSync(path, 'utf8').split(/\r?\n/);

  /** Settings set in the file (`NAME=value`), with their values. */
  const set = new Map<string, string>();
  /** Settings listed commented out (`# NAME=`). */
  const commented = new Set<string>();
  /** Every listed setting, in file order. */
  const listed: string[] = [];
  for (const line of lines) {
    const active = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    const inactive = /^#\s*([A-Z][A-Z0-9_]*)=/.exec(line);
    if (active) {
      set.set(active[1], active[2]);
      listed.push(active[1]);
    } else if (inactive) {
      commented.add(inactive[1]);
      listed.push(inactive[1]);
    }
  }

  /** AppConfig's settings: every property that carries a validation decorator, in class order. */
  const settings = [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(AppConfig, '', true, false)
        .map((metadata) => metadata.propertyName),
    ),
  ];
  const defaults = new AppConfig() as unknown as Record<string, unknown>;

  it('finds AppConfig settings to compare with', () => {
    expect(settings).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'SECRET_KEY']));
    expect(listed.length).toBeGreaterThan(0);
  });

  it('lists each setting once', () => {
    expect(listed.length).toBe(new Set(listed).size);
  });

  it("lists exactly AppConfig's settings", () => {
    expect([...listed].sort()).toEqual([...settings].sort());
  });

  it("lists the settings in AppConfig's order", () => {
    expect(listed).toEqual(settings);
  });

  it('comments out exactly the settings that have no default', () => {
    const unsetByDefault = settings.filter((name) => defaults[name] === undefined);
    expect([...commented].sort()).toEqual([...unsetByDefault].sort());
  });

  it("gives each set setting AppConfig's default", () => {
    for (const [name, value] of set) {
      expect({ name, value }).toEqual({ name, value: String(defaults[name]) });
    }
  });

  it('loads to the same configuration as no environment at all', () => {
    expect(loadConfig(Object.fromEntries(set))).toEqual(loadConfig({}));
  });
});

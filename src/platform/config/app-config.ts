import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
  ValidationError,
} from 'class-validator';

const toBoolean = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const normalized = value.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
  if (['false', '0', 'no', 'off'].includes(normalized)) return false;
  return value;
};
const toInteger = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toDecimal = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LOG_FORMATS = ['pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const BLOB_STORES = ['filesystem', 's3'] as const;
export type BlobStoreKind = (typeof BLOB_STORES)[number];

export const RATE_LIMIT_STORES = ['process', 'database', 'redis'] as const;
export type RateLimitStoreKind = (typeof RATE_LIMIT_STORES)[number];

export const OTEL_TRACES_EXPORTERS = ['otlp', 'none'] as const;

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export const OTEL_TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const HTTP_URL = /^https?:\/\/[^\s/?#]+([/?#]\S*)?$/i;

export const TRANSLATION_PROVIDERS = ['ai', 'libretranslate', 'deepl'] as const;
export type TranslationProviderName = (typeof TRANSLATION_PROVIDERS)[number];

/**
 * Every setting Bindery reads, with its default. This is the only place that reads the
 * environment; `.env.example` mirrors it line by line.
 */
export class AppConfig {
  /** TCP port the HTTP server listens on. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Interface the HTTP server binds to. */
  @IsString()
  HOST = '0.0.0.0';

  /** PostgreSQL connection string; when unset, the embedded database (PGlite) is used. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  /** Size of the `pg` connection pool. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /**
   * Longest a statement may run (PostgreSQL's `statement_timeout`, set on every connection of
   * the pool but not on migrations); one that runs longer is cancelled and its request answered
   * 503. 0 leaves it to the server (or a pooler that refuses startup parameters).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  DATABASE_STATEMENT_TIMEOUT_MS = 30_000;

  /**
   * Longest a statement may wait for a lock (PostgreSQL's `lock_timeout`, on every connection
   * of the pool but not on migrations): a table or row held by someone else answers 503 after
   * this, instead of holding the request and its connection. 0 leaves it to the server.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  DATABASE_LOCK_TIMEOUT_MS = 5_000;

  /**
   * Longest a request waits for a connection of the pool (all in use, or the database slow to
   * accept one) before it is answered 503.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  DATABASE_POOL_ACQUIRE_TIMEOUT_MS = 10_000;

  /**
   * `true` runs the statements of every request (token lookup, access checks) as named
   * prepared statements on DATABASE_URL. Set `false` behind a pooler that shares server
   * sessions between clients without tracking prepared statements (PgBouncer in transaction
   * mode before 1.21). Always off on the embedded database.
   */
  @Transform(toBoolean)
  @IsBoolean()
  DATABASE_PREPARED_STATEMENTS = true;

  /** Folder for the embedded database and blobs; `memory` keeps the database in memory. */
  @IsString()
  @MinLength(1)
  DATA_DIR = './.data';

  /**
   * Where blobs (uploaded files, generated PDFs, OpenAPI documents, Git export material) are
   * kept: `filesystem` (DATA_DIR/blobs, one machine) or `s3` (an S3-compatible bucket, S3_*,
   * shared by every process).
   */
  @IsIn(BLOB_STORES)
  BLOB_STORE: BlobStoreKind = 'filesystem';

  /** Bucket of the blobs (required with BLOB_STORE=s3); Bindery does not create it. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{2,254}$/, {
    message: 'S3_BUCKET must be a bucket name: at least 3 letters, digits, ".", "_" and "-"',
  })
  S3_BUCKET?: string;

  /**
   * Base URL of the S3 API, for S3-compatible servers (MinIO, Ceph, Garage, R2 …), e.g.
   * `http://minio:9000`. Unset: AWS S3 in S3_REGION.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'S3_ENDPOINT must be an http(s) URL' })
  S3_ENDPOINT?: string;

  /** Region of the bucket (S3-compatible servers mostly accept any). */
  @IsString()
  @MinLength(1)
  S3_REGION = 'us-east-1';

  /**
   * Access key of the S3 API (with S3_SECRET_ACCESS_KEY). Unset: the AWS SDK's own chain
   * (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance or task role).
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  S3_ACCESS_KEY_ID?: string;

  /** Secret of S3_ACCESS_KEY_ID. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  S3_SECRET_ACCESS_KEY?: string;

  /**
   * `true` addresses the bucket in the path (`http://minio:9000/bucket/key`) rather than as a
   * host name (`http://bucket.minio:9000/key`): needed by MinIO and most self-hosted servers.
   */
  @Transform(toBoolean)
  @IsBoolean()
  S3_FORCE_PATH_STYLE = false;

  /** Folder of the bucket the blobs go under (e.g. `bindery`), so a bucket can be shared. */
  @IsOptional()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*\/?$/, {
    message: 'S3_PREFIX must be a folder name such as bindery or docs/bindery',
  })
  S3_PREFIX?: string;

  /** Run pending migrations at start. */
  @Transform(toBoolean)
  @IsBoolean()
  MIGRATIONS_RUN = true;

  /** Token of the instance administrator (admin API); generated and printed once when unset. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'ADMIN_TOKEN must be at least 32 characters' })
  ADMIN_TOKEN?: string;

  /** Public base URL of the API, used in `urls.location`; defaults to http://localhost:PORT. */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'PUBLIC_URL must be an http(s) URL' })
  PUBLIC_URL?: string;

  /** Base URL of the web app, used in `urls.app`; defaults to PUBLIC_URL. */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'APP_URL must be an http(s) URL' })
  APP_URL?: string;

  /**
   * Base URL of published sites, used in a site's `urls.published` when it has no custom
   * hostname; `{organization}` stands for the organization's hostname (or its id when it has
   * none). Defaults to PUBLIC_URL/sites/{organization}.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'SITES_URL must be an http(s) URL' })
  SITES_URL?: string;

  /**
   * Base URL of integrations' public endpoints (their `urls.publicEndpoint`), another origin
   * than PUBLIC_URL's that reaches this same server: the pages integrations serve there (the
   * web frames of their blocks) run as that origin, framed by sites, with the content security
   * policy their manifest gives. Unset: they are served under PUBLIC_URL, sandboxed (an opaque
   * origin), where web frames that talk to their page do not work.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+\/?$/, {
    message: 'INTEGRATIONS_URL must be an http(s) origin, e.g. https://integrations.example.com',
  })
  INTEGRATIONS_URL?: string;

  /**
   * On an empty database, create a demo user, organization, space and API token, and print the
   * token. Defaults to true on the embedded database (a first try) and false with DATABASE_URL
   * (a deployment).
   */
  @Transform(toBoolean)
  @IsBoolean()
  @IsOptional()
  SEED_DEMO?: boolean;

  /** Log level. */
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /**
   * `pretty` writes one coloured line per log entry (for a terminal), `json` one JSON object per
   * line (for a log collector). Unset: pretty when stdout is a terminal, JSON otherwise.
   */
  @IsOptional()
  @IsIn(LOG_FORMATS)
  LOG_FORMAT?: LogFormat;

  /**
   * Origins whose browser pages may call the API (CORS): a comma-separated list of origins
   * (`https://docs.example.com,http://localhost:5173`), or `*` for any origin (then without
   * cookies or other credentials). Unset: no cross-origin calls.
   */
  @IsOptional()
  @Matches(/^(\*|https?:\/\/[^\s,/]+(,https?:\/\/[^\s,/]+)*)$/i, {
    message:
      'CORS_ORIGINS must be * or a comma-separated list of origins such as https://app.example.com',
  })
  CORS_ORIGINS?: string;

  /**
   * Which proxies in front of Bindery to trust for the client's address and protocol
   * (X-Forwarded-For, X-Forwarded-Proto), as Express's `trust proxy`: `true`, `false`, a number
   * of hops, or a comma-separated list of addresses, subnets or `loopback`, `linklocal`,
   * `uniquelocal`. The client address keys the anonymous rate limit and the audit log.
   */
  @Matches(/^(true|false|\d+|[\w.:/-]+(\s*,\s*[\w.:/-]+)*)$/, {
    message:
      'TRUST_PROXY must be true, false, a number of hops, or addresses/subnets (e.g. loopback,10.0.0.0/8)',
  })
  TRUST_PROXY = 'loopback';

  /**
   * `true` serves Prometheus metrics at GET /metrics (outside /v1) without a token: for a
   * listener only the scraper reaches. Setting METRICS_TOKEN serves them too, behind the token.
   * Off by default: /metrics answers 404 and no request is measured.
   */
  @Transform(toBoolean)
  @IsBoolean()
  METRICS_ENABLED = false;

  /**
   * Bearer token the scraper sends to GET /metrics (`Authorization: Bearer <token>`); setting it
   * turns metrics on, and a scrape without it gets 401.
   */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /**
   * OpenTelemetry tracing (see src/platform/tracing): on once an OTLP endpoint is set
   * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), unless
   * OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER is `none`. These are the standard
   * variables, validated here; the SDK reads them (and its other OTEL_* variables) itself.
   */
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  OTEL_SDK_DISABLED?: boolean;

  /** `otlp` (what an endpoint implies) or `none` (tracing off even with an endpoint). */
  @IsOptional()
  @IsIn(OTEL_TRACES_EXPORTERS)
  OTEL_TRACES_EXPORTER?: (typeof OTEL_TRACES_EXPORTERS)[number];

  /** Base URL of the OTLP/HTTP receiver: traces go to `<it>/v1/traces`. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** Full URL traces are posted to (taken as is); wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** `http/protobuf` (OpenTelemetry's default) or `http/json`. */
  @IsOptional()
  @IsIn(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_PROTOCOL?: OtlpProtocol;

  /** The protocol of traces; wins over OTEL_EXPORTER_OTLP_PROTOCOL. */
  @IsOptional()
  @IsIn(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: OtlpProtocol;

  /** Headers of every export request, `name=value` comma-separated (an API key, for example). */
  @IsOptional()
  @Matches(/^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/, {
    message: 'OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs, comma-separated',
  })
  OTEL_EXPORTER_OTLP_HEADERS?: string;

  /** service.name of the spans; `bindery` (`bindery-worker` for `npm run worker`) when unset. */
  @IsOptional()
  @IsString()
  OTEL_SERVICE_NAME?: string;

  /** More resource attributes, `key=value` comma-separated (deployment.environment=prod). */
  @IsOptional()
  @IsString()
  OTEL_RESOURCE_ATTRIBUTES?: string;

  /** Which traces are kept; the SDK's default is `parentbased_always_on` (all of them). */
  @IsOptional()
  @IsIn(OTEL_TRACES_SAMPLERS)
  OTEL_TRACES_SAMPLER?: (typeof OTEL_TRACES_SAMPLERS)[number];

  /** The ratio of the `traceidratio` samplers, from 0 to 1 (0.1 keeps one trace in ten). */
  @IsOptional()
  @Matches(/^(0(\.\d*)?|1(\.0*)?|\.\d+)$/, {
    message: 'OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1',
  })
  OTEL_TRACES_SAMPLER_ARG?: string;

  /**
   * Largest accepted JSON body of an ordinary request (bytes, or with a unit: 512kb, 10mb),
   * counted after decompression.
   */
  @Matches(/^\d+(b|kb|mb)?$/i, { message: 'BODY_LIMIT must look like 1048576, 512kb or 10mb' })
  BODY_LIMIT = '256kb';

  /**
   * Largest accepted JSON body of the requests that carry content or batches (content writes,
   * page documents, templates, OpenAPI documents, conversation batches: the routes marked
   * `@LargeBody()`, `x-bindery-body-limit: large` in the API document).
   */
  @Matches(/^\d+(b|kb|mb)?$/i, {
    message: 'BODY_LIMIT_LARGE must look like 1048576, 512kb or 10mb',
  })
  BODY_LIMIT_LARGE = '10mb';

  /** Time a client has to send a request's headers, in milliseconds (slow clients are cut off). */
  @Transform(toInteger)
  @IsInt()
  @Min(1000)
  HTTP_HEADERS_TIMEOUT_MS = 20000;

  /** Time a client has to send a whole request, headers and body, in milliseconds. */
  @Transform(toInteger)
  @IsInt()
  @Min(1000)
  HTTP_REQUEST_TIMEOUT_MS = 120000;

  /**
   * How long an idle keep-alive connection stays open, in milliseconds. Behind a load balancer,
   * make it longer than the balancer's own idle timeout.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5000;

  /**
   * At SIGTERM or SIGINT, how long the requests in flight have to finish (new connections are
   * refused at once, GET /health/ready answers 503), in milliseconds; the connections still
   * open then are cut. Job workers get as long to end their current job; then the database
   * closes.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 10000;

  /**
   * Milliseconds a process keeps a token it has looked up: requests with it within that time
   * need no lookup. A token revoked, or a user disabled, stops at once in the process that did
   * it and within this time in the others. 0: every request looks its token up.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(5000)
  TOKEN_CACHE_MS = 1000;

  /** Requests per minute per API token; 0 turns rate limiting off. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  RATE_LIMIT_PER_MINUTE = 600;

  /**
   * Where the rate limit counters are kept: `process` (in memory: each process counts on its
   * own), `database` (a table of the application's PostgreSQL, shared by every process) or
   * `redis` (REDIS_URL, shared). Unset: `redis` when REDIS_URL is set, else `database` with
   * DATABASE_URL, else `process` (the embedded database serves one process).
   */
  @IsOptional()
  @IsIn(RATE_LIMIT_STORES)
  RATE_LIMIT_STORE?: RateLimitStoreKind;

  /**
   * With a shared store (database or redis), in milliseconds: a token's hits within this time
   * of the process's last round trip to the store are counted in the process and added to the
   * store together, one round trip per token whatever its traffic; a hit later than that goes
   * to the store at once. 0: every hit is a round trip. The limit holds across processes up to
   * what the others admitted within this time, and exactly for hits further apart.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(10_000)
  RATE_LIMIT_SYNC_MS = 100;

  /** Redis server of the rate limit counters (RATE_LIMIT_STORE=redis), e.g. `redis://redis:6379`. */
  @IsOptional()
  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /**
   * DNS servers that custom hostnames are checked against (CNAME and TXT records), a
   * comma-separated list of addresses, each with an optional port: `1.1.1.1,8.8.8.8:53`,
   * `[2606:4700:4700::1111]:53`. Unset: the system's resolvers (/etc/resolv.conf).
   */
  @IsOptional()
  @Matches(
    /^\s*(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9a-fA-F]*:[0-9a-fA-F:.]+)(\s*,\s*(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9a-fA-F]*:[0-9a-fA-F:.]+))*\s*$/,
    {
      message:
        'DNS_SERVERS must be a comma-separated list of IP addresses, each with an optional port (1.1.1.1,8.8.8.8:53,[::1]:53)',
    },
  )
  DNS_SERVERS?: string;

  /**
   * The host a custom hostname's CNAME record must name for it to go live (lower-case, no
   * trailing dot). Defaults to PUBLIC_URL's host.
   */
  @IsOptional()
  @Matches(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
    {
      message:
        'CUSTOM_HOSTNAME_CNAME_TARGET must be a lower-case host name such as sites.example.com',
    },
  )
  CUSTOM_HOSTNAME_CNAME_TARGET?: string;

  /** `true` lets outbound requests reach private and loopback addresses (tests, local use). */
  @Transform(toBoolean)
  @IsBoolean()
  OUTBOUND_ALLOW_PRIVATE = false;

  /** Timeout of one outbound request, in milliseconds. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  OUTBOUND_TIMEOUT_MS = 15000;

  /** Largest outbound response body, in bytes. */
  @Transform(toInteger)
  @IsInt()
  @Min(1024)
  OUTBOUND_MAX_BYTES = 20 * 1024 * 1024;

  /**
   * Largest file a Git import brings in, in bytes (larger ones are left out and named in the
   * operation's warnings); GitHub refuses files over 100 MiB. Files are streamed to the blob
   * store, so the limit is not one of memory.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(10 * 1024 * 1024 * 1024)
  GIT_MAX_FILE_BYTES = 100 * 1024 * 1024;

  /**
   * Largest font file of a custom font (`generateStorageUploadURL` with kind
   * `customization_font`, and the upload it signs), in bytes. Files are held whole in memory
   * while they are checked and stored.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1024)
  @Max(100 * 1024 * 1024)
  CUSTOM_FONT_MAX_BYTES = 10 * 1024 * 1024;

  /**
   * Largest file to import (`generateStorageUploadURL` with kind `import_file`, and the upload
   * it signs), in bytes: a Markdown, HTML or Word file, or a ZIP archive of an export. Files are
   * held whole in memory while they are checked, stored and converted.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1024)
  @Max(1024 * 1024 * 1024)
  IMPORT_FILE_MAX_BYTES = 50 * 1024 * 1024;

  /** Most pages an import of a website fetches (`startImportRun` with a `website` source). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(100_000)
  IMPORT_MAX_PAGES = 500;

  /**
   * Minutes after which a pending or running import that stopped reporting (its process died)
   * is answered `failed`.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  IMPORT_STALE_AFTER_MINUTES = 30;

  /**
   * Minutes between two fetches of an OpenAPI specification given by URL (each spec counts from
   * its last processing); 0 fetches them only on creation and PUT.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(525600)
  OPENAPI_REFRESH_MINUTES = 60;

  /** Days an audit event is kept; older ones are deleted by a daily job. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(36500)
  AUDIT_RETENTION_DAYS = 365;

  /**
   * Base URL of an OpenAI-compatible API (OpenAI, vLLM, Ollama, llama.cpp …), up to and without
   * `/chat/completions`, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. Used
   * by translations (TRANSLATION_PROVIDER=ai) and by conversation analysis. Unset: no AI.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'AI_API_URL must be an http(s) URL' })
  AI_API_URL?: string;

  /** Bearer token for AI_API_URL; unset for servers that need none. */
  @IsOptional()
  @IsString()
  AI_API_KEY?: string;

  /** Model name sent to AI_API_URL (required with it). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  AI_MODEL?: string;

  /**
   * Embedding model at AI_API_URL (`POST /embeddings`), e.g. `text-embedding-3-small`. Set, the
   * conversation analysis clusters issues by the cosine of their embeddings (each issue embedded
   * once) instead of TF-IDF. Unset: TF-IDF.
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  AI_EMBEDDING_MODEL?: string;

  /**
   * The cosine similarity to a question a section's embedding needs at least for an answer to
   * draw on its page by meaning (AI_EMBEDDING_MODEL); depends on the model (unrelated texts are
   * about 0.1 apart with OpenAI's, 0.3 to 0.4 with some local ones).
   */
  @Transform(toDecimal)
  @IsNumber()
  @Min(0)
  @Max(1)
  AI_EMBEDDING_MIN_SIMILARITY = 0.3;

  /** Timeout of one AI request, in milliseconds. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  AI_TIMEOUT_MS = 120000;

  /**
   * Days a question asked of a site (its answer, sources and feedback) and an agent's feedback
   * are kept; a daily job deletes older ones.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(36500)
  AI_QUESTIONS_RETENTION_DAYS = 90;

  /**
   * Questions one visitor (a member; for a site's token, the `visitorId` its renderer sends,
   * else the token) may ask of a site per minute (streamAskInSite); 0: no limit. Counted in the
   * rate limit store (RATE_LIMIT_STORE).
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  AI_ASK_PER_VISITOR_PER_MINUTE = 10;

  /** Questions a site answers per minute, all its visitors together; 0: no limit. */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  AI_ASK_PER_SITE_PER_MINUTE = 120;

  /**
   * Questions a member may ask of an organization per minute (askInOrganization,
   * streamAskInOrganization); 0: no limit.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  AI_ASK_PER_MEMBER_PER_MINUTE = 20;

  /**
   * Characters of a prompt sent to the model for an answer or recommended questions, at most:
   * the sources' texts (then the page titles, the instructions) are cut to fit.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(4000)
  AI_MAX_PROMPT_CHARS = 40000;

  /**
   * Tokens an organization's answers may use per calendar month (UTC), as the model reports
   * them (else estimated, 4 characters a token); once used, asks answer 429 until the month
   * ends. Unset: no budget.
   */
  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  AI_MONTHLY_TOKEN_BUDGET?: number;

  /**
   * Translation provider: `ai` (AI_API_URL, AI_API_KEY, AI_MODEL), `libretranslate` or `deepl`
   * (TRANSLATION_API_URL, TRANSLATION_API_KEY). Unset: running a translation answers 409.
   */
  @IsOptional()
  @IsIn(TRANSLATION_PROVIDERS)
  TRANSLATION_PROVIDER?: TranslationProviderName;

  /** Base URL of the LibreTranslate or DeepL API (DeepL: https://api.deepl.com or https://api-free.deepl.com). */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, {
    message: 'TRANSLATION_API_URL must be an http(s) URL',
  })
  TRANSLATION_API_URL?: string;

  /** API key of the LibreTranslate or DeepL API. */
  @IsOptional()
  @IsString()
  TRANSLATION_API_KEY?: string;

  /**
   * Origin of GitBook's open-source site renderer that shows Bindery's published sites (its own
   * URL, e.g. http://renderer:3000). When set, Bindery asks it to revalidate its cache
   * (`POST /~gitbook/revalidate`) when published content, sites or their settings change.
   * Unset: no revalidation (the renderer's cache then lives up to a day).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, { message: 'RENDERER_URL must be an http(s) URL' })
  RENDERER_URL?: string;

  /**
   * The renderer's origin as browsers reach it, where site previews
   * (`getSitePublishingPreviewById`) open: `<it>/~site/<siteId>/…?token=…&api=<PUBLIC_URL>`.
   * Defaults to RENDERER_URL. Unset with it: no previews (400).
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^/\s]+(\/[^\s]*)?$/, {
    message: 'RENDERER_PUBLIC_URL must be an http(s) URL',
  })
  RENDERER_PUBLIC_URL?: string;

  /**
   * The renderer's GITBOOK_SECRET: revalidation requests are signed with it
   * (`x-gitbook-signature`). Unset: sent unsigned, which a renderer without a secret accepts.
   */
  @IsOptional()
  @IsString()
  RENDERER_SECRET?: string;

  /**
   * Seconds a process keeps the answer of a published-content lookup, by URL and visitor, and
   * a published site's structure (0: none). A change to a site made in the process drops them
   * at once; changes made by other processes show within this time.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(300)
  PUBLISHED_LOOKUP_CACHE_SECONDS = 5;

  /**
   * Matching pages a search ranks exactly, at most. A query that matches more pages of a space
   * ranks this many candidates (pages with its terms in their title first, then others) and
   * reports their number as `count`; one that matches fewer ranks and counts every match.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(100000)
  SEARCH_EXACT_RANK_LIMIT = 1000;

  /**
   * The longest an integration's script may take to answer one event or render, in
   * milliseconds; past it its runtime is stopped.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(300000)
  INTEGRATION_TIMEOUT_MS = 10000;

  /** The memory an integration's runtime (one workerd process) may use, in megabytes. */
  @Transform(toInteger)
  @IsInt()
  @Min(32)
  @Max(8192)
  INTEGRATION_MEMORY_MB = 256;

  /**
   * How many integrations' runtimes are kept running at once (each a workerd process of about
   * 50 MB); the least recently used is stopped for a new one.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(256)
  INTEGRATION_RUNTIMES = 8;

  /** Timeout of one webhook delivery attempt, in milliseconds. */
  @Transform(toInteger)
  @IsInt()
  @Min(100)
  @Max(120000)
  WEBHOOK_TIMEOUT_MS = 10000;

  /**
   * Seconds to wait before each retry of a failed webhook delivery, comma-separated: one retry
   * per value, then the delivery has failed. The default spans about 22 hours.
   */
  @Matches(/^\d+(\.\d+)?(,\d+(\.\d+)?){0,29}$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE must be 1 to 30 comma-separated numbers of seconds',
  })
  WEBHOOK_RETRY_SCHEDULE = '5,30,120,600,1800,3600,7200,14400,21600,28800';

  /** Days events and finished webhook deliveries are kept. */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(3650)
  EVENT_RETENTION_DAYS = 30;

  /** Run background-job workers inside the API process (turn off when running `npm run worker`). */
  @Transform(toBoolean)
  @IsBoolean()
  JOBS_IN_PROCESS = true;

  /**
   * SMTP server Bindery sends email through (invitations, notifications):
   * `smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://…:465`
   * (TLS). Unset: email is off, and what would have sent one says so.
   */
  @IsOptional()
  @Matches(/^smtps?:\/\/[^/\s]+\/?$/, {
    message: 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…',
  })
  SMTP_URL?: string;

  /** The From of Bindery's email: an address, or `Name <address>`. */
  @IsString()
  @Matches(/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/, {
    message: 'SMTP_FROM must be an address or "Name <address>"',
  })
  SMTP_FROM = 'Bindery <bindery@localhost>';

  /** Hours an emailed invitation link stays valid (inviting the address again makes a new one). */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(8760)
  EMAIL_INVITE_TTL_HOURS = 168;

  /**
   * Hours the API token of a SAML sign-in is valid. It reaches only the organization of the
   * identity provider.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(720)
  SSO_SESSION_HOURS = 24;

  /**
   * Where a SAML sign-in may send its one-time code (`redirect_uri` of the start URL): URL
   * prefixes, comma-separated, such as `http://localhost:8080/callback,https://tools.example.com/`.
   * Unset: none, and a sign-in ends on a page that shows its token.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s,]+(,https?:\/\/[^\s,]+)*$/, {
    message: 'SSO_REDIRECT_URLS must be http(s) URL prefixes, comma-separated',
  })
  SSO_REDIRECT_URLS?: string;

  /**
   * How much `npm run worker` processes lower their CPU priority (Unix niceness, 0–19): on a
   * machine they share with API processes, requests go first and background jobs (webhook
   * deliveries, Git syncs, translation runs) take the CPU left. 0 keeps the priority.
   */
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(19)
  WORKER_NICENESS = 10;

  /**
   * Secret from which the keys of signed URLs, visitor tokens and encrypted Git credentials are
   * derived. Required with DATABASE_URL; on the embedded database, unset means a key file
   * (DATA_DIR/secret.key, mode 0600) made at the first start.
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SECRET_KEY must be at least 32 characters' })
  SECRET_KEY?: string;

  /**
   * Earlier values of SECRET_KEY, comma-separated, during a rotation: what they signed or
   * encrypted is still accepted; everything new uses SECRET_KEY.
   */
  @IsOptional()
  @Matches(/^[^,\s]{32,}(,[^,\s]{32,})*$/, {
    message: 'SECRET_KEY_PREVIOUS must be secrets of at least 32 characters, comma-separated',
  })
  SECRET_KEY_PREVIOUS?: string;

  get publicUrl(): string {
    return trimSlash(this.PUBLIC_URL ?? `http://localhost:${this.PORT}`);
  }

  get appUrl(): string {
    return trimSlash(this.APP_URL ?? this.publicUrl);
  }

  /** SITES_URL (or its default), without trailing slashes; may contain `{organization}`. */
  get sitesUrl(): string {
    return trimSlash(this.SITES_URL ?? `${this.publicUrl}/sites/{organization}`);
  }

  /** INTEGRATIONS_URL without its trailing slash, or undefined (endpoints under PUBLIC_URL). */
  get integrationsUrl(): string | undefined {
    return this.INTEGRATIONS_URL === undefined ? undefined : trimSlash(this.INTEGRATIONS_URL);
  }

  /** RENDERER_URL without trailing slashes, or undefined when revalidation is off. */
  get rendererUrl(): string | undefined {
    return this.RENDERER_URL === undefined ? undefined : trimSlash(this.RENDERER_URL);
  }

  /** Where browsers open site previews: RENDERER_PUBLIC_URL, else RENDERER_URL, else none. */
  get rendererPublicUrl(): string | undefined {
    const url = this.RENDERER_PUBLIC_URL ?? this.RENDERER_URL;
    return url === undefined ? undefined : trimSlash(url);
  }

  /** An OpenAI-compatible endpoint is configured (AI_API_URL and AI_MODEL). */
  get aiConfigured(): boolean {
    return Boolean(this.AI_API_URL && this.AI_MODEL);
  }

  /** Embeddings can be asked for (AI_API_URL and AI_EMBEDDING_MODEL). */
  get embeddingsConfigured(): boolean {
    return Boolean(this.AI_API_URL && this.AI_EMBEDDING_MODEL);
  }

  /** SSO_REDIRECT_URLS as a list. */
  get ssoRedirectUrls(): string[] {
    return this.SSO_REDIRECT_URLS ? this.SSO_REDIRECT_URLS.split(',') : [];
  }

  /** SECRET_KEY_PREVIOUS as a list. */
  get secretKeysPrevious(): string[] {
    return this.SECRET_KEY_PREVIOUS ? this.SECRET_KEY_PREVIOUS.split(',') : [];
  }

  /** RATE_LIMIT_STORE, or its default from REDIS_URL and DATABASE_URL. */
  get rateLimitStore(): RateLimitStoreKind {
    if (this.RATE_LIMIT_STORE) return this.RATE_LIMIT_STORE;
    if (this.REDIS_URL) return 'redis';
    return this.DATABASE_URL ? 'database' : 'process';
  }

  get embeddedDatabase(): boolean {
    return !this.DATABASE_URL;
  }

  /** SEED_DEMO, or its default: on the embedded database only. */
  get seedDemo(): boolean {
    return this.SEED_DEMO ?? this.embeddedDatabase;
  }

  /** LOG_FORMAT, or pretty when stdout is a terminal. */
  get logFormat(): LogFormat {
    return this.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  }

  /** DNS_SERVERS as node:dns Resolver#setServers takes them, or undefined for the system's. */
  get dnsServers(): string[] | undefined {
    if (!this.DNS_SERVERS) return undefined;
    return this.DNS_SERVERS.split(',').map((server) => server.trim());
  }

  /** CUSTOM_HOSTNAME_CNAME_TARGET, or PUBLIC_URL's host. */
  get customHostnameCnameTarget(): string {
    return this.CUSTOM_HOSTNAME_CNAME_TARGET ?? new URL(this.publicUrl).hostname.toLowerCase();
  }

  /** CORS_ORIGINS as `*`, a list of origins, or undefined when cross-origin calls are off. */
  get corsOrigins(): '*' | string[] | undefined {
    if (!this.CORS_ORIGINS) return undefined;
    if (this.CORS_ORIGINS === '*') return '*';
    return this.CORS_ORIGINS.split(',').map((origin) => trimSlash(origin.trim()).toLowerCase());
  }

  /** TRUST_PROXY as Express takes it. */
  get trustProxy(): boolean | number | string {
    const value = this.TRUST_PROXY.trim();
    if (value === 'true') return true;
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  }

  /** WEBHOOK_RETRY_SCHEDULE in milliseconds: the wait before retry 1, 2, … */
  get webhookRetryDelaysMs(): number[] {
    return this.WEBHOOK_RETRY_SCHEDULE.split(',').map((seconds) =>
      Math.round(Number(seconds) * 1000),
    );
  }

  /** S3_PREFIX as the start of every key: empty, or the folder with one trailing slash. */
  get s3KeyPrefix(): string {
    return this.S3_PREFIX ? `${this.S3_PREFIX.replace(/\/+$/, '')}/` : '';
  }

  get inMemory(): boolean {
    return this.DATA_DIR === 'memory';
  }

  /**
   * Where spans are exported when tracing is on (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or
   * OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`); undefined when tracing is off.
   */
  get tracesEndpoint(): string | undefined {
    if (this.OTEL_SDK_DISABLED || this.OTEL_TRACES_EXPORTER === 'none') return undefined;
    if (this.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return this.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    if (!this.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
    return `${trimSlash(this.OTEL_EXPORTER_OTLP_ENDPOINT)}/v1/traces`;
  }

  /** The OTLP protocol of traces: http/protobuf unless set. */
  get tracesProtocol(): OtlpProtocol {
    return (
      this.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? this.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf'
    );
  }

  /** GET /metrics is served (and requests measured): METRICS_ENABLED, or a METRICS_TOKEN. */
  get metricsEnabled(): boolean {
    return this.METRICS_ENABLED || Boolean(this.METRICS_TOKEN);
  }
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

/** Builds the configuration from an environment, or throws a ConfigurationError naming each bad setting. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Record<keyof AppConfig, unknown>> = {},
): AppConfig {
  const known = Object.keys(new AppConfig());
  const raw: Record<string, unknown> = {};
  for (const key of [...known, ...OPTIONAL_SETTINGS]) {
    // An empty value means "use the default", as when the setting is absent.
    if (env[key] !== undefined && env[key]?.trim() !== '') raw[key] = env[key];
  }
  Object.assign(raw, overrides);
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { forbidUnknownValues: false });
  const problems = errors.length > 0 ? errors.flatMap(describe) : dependencyProblems(config);
  if (problems.length > 0) throw new ConfigurationError(problems);
  return config;
}

/** Settings that only make sense together; checked once each setting is valid on its own. */
function dependencyProblems(config: AppConfig): string[] {
  const problems: string[] = [];
  if (config.BLOB_STORE === 's3' && !config.S3_BUCKET) {
    problems.push('S3_BUCKET is required with BLOB_STORE=s3: the bucket the blobs go in');
  }
  if (config.BLOB_STORE !== 's3' && config.S3_BUCKET) {
    problems.push(
      'S3_BUCKET is set but BLOB_STORE is not s3: set BLOB_STORE=s3 to keep blobs in the ' +
        'bucket, or unset S3_BUCKET to keep them under DATA_DIR/blobs',
    );
  }
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    problems.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the ' +
        "AWS SDK's own credentials (AWS_* variables, a profile, an instance role)",
    );
  }
  const integrationsUrl = config.integrationsUrl;
  if (integrationsUrl !== undefined) {
    // Integrations' pages run unsandboxed there: on the API's or the app's hostname they would
    // act as that origin (its storage: Swagger UI keeps the tokens it is given in localStorage).
    const host = new URL(integrationsUrl).hostname;
    const taken = [
      ['PUBLIC_URL', config.publicUrl],
      ['APP_URL', config.appUrl],
    ].filter(([, url]) => new URL(url).hostname === host);
    if (taken.length > 0) {
      problems.push(
        `INTEGRATIONS_URL must be on another hostname than ${taken.map(([name]) => name).join(' and ')} ` +
          `(${host}): integrations' pages run there as that origin, unsandboxed`,
      );
    }
  }
  if (config.RATE_LIMIT_STORE === 'redis' && !config.REDIS_URL) {
    problems.push(
      'REDIS_URL is required with RATE_LIMIT_STORE=redis: the Redis server of the rate limit ' +
        'counters, e.g. redis://redis:6379',
    );
  }
  return problems;
}

/** Settings without a default (absent from `new AppConfig()`'s keys). */
const OPTIONAL_SETTINGS = [
  'DATABASE_URL',
  'SEED_DEMO',
  'LOG_FORMAT',
  'CORS_ORIGINS',
  'ADMIN_TOKEN',
  'PUBLIC_URL',
  'APP_URL',
  'SITES_URL',
  'INTEGRATIONS_URL',
  'DNS_SERVERS',
  'CUSTOM_HOSTNAME_CNAME_TARGET',
  'SECRET_KEY',
  'SECRET_KEY_PREVIOUS',
  'AI_API_URL',
  'AI_API_KEY',
  'AI_MODEL',
  'AI_EMBEDDING_MODEL',
  'AI_MONTHLY_TOKEN_BUDGET',
  'TRANSLATION_PROVIDER',
  'TRANSLATION_API_URL',
  'TRANSLATION_API_KEY',
  'RENDERER_URL',
  'RENDERER_PUBLIC_URL',
  'RENDERER_SECRET',
  'SMTP_URL',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_PREFIX',
  'METRICS_TOKEN',
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'RATE_LIMIT_STORE',
  'REDIS_URL',
];
/** Never echoed back in error messages: they hold credentials. */
const SECRET_SETTINGS = new Set([
  'DATABASE_URL',
  'ADMIN_TOKEN',
  'SECRET_KEY',
  'SECRET_KEY_PREVIOUS',
  'AI_API_KEY',
  'TRANSLATION_API_KEY',
  'RENDERER_SECRET',
  'SMTP_URL',
  'S3_SECRET_ACCESS_KEY',
  'METRICS_TOKEN',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'REDIS_URL',
]);

function describe(error: ValidationError): string[] {
  const messages = Object.values(error.constraints ?? {});
  const shown = SECRET_SETTINGS.has(error.property) ? '' : ` (got ${JSON.stringify(error.value)})`;
  return messages.map((m) => `${m}${shown}`);
}

import { decodeSecretKey, SecretKey, type SecretKeyring } from './kernel/secret-keys.js';

/** The limits every GraphQL document must stay within, over HTTP and over graphql-ws alike. */
export interface GraphQLLimits {
  /** Lexical tokens in a document; the parser stops at the first one over (so a huge document is never built). */
  maxTokens: number;
  /** Nesting of selections (introspection's own nesting excepted). */
  maxDepth: number;
  /** Aliased fields in an operation. */
  maxAliases: number;
  /** Directives in an operation. */
  maxDirectives: number;
  /** Estimated result size: every field counts 1, multiplied by the page size of each list it is inside. */
  maxCost: number;
  /** Whether callers without credentials may introspect the schema and get field suggestions. */
  anonymousIntrospection: boolean;
}

export interface GraphQLConfig extends GraphQLLimits {
  /** Largest /graphql request body from a caller with credentials, in bytes. */
  maxBodyBytes: number;
  /** Largest /graphql request body from a caller without credentials (sign-in), in bytes. */
  anonymousMaxBodyBytes: number;
  /** A JSON file of trusted documents ({"<sha256 hash>": "<document>"}); when set, only they run (signed-in users excepted). */
  trustedDocuments?: string;
  /** Runs of a query or mutation through graphql-js before it is compiled with graphql-jit (0: at once); Infinity (the default): never. */
  jitAfterRuns: number;
}

export interface AlertSettings {
  /** How often an idle alerts evaluator looks for new events (ms); 0: this instance evaluates none (docs/alerts.md). */
  pollMs: number;
  /** How often this instance runs the sweep of time rules (seconds); 0: never. */
  sweepSeconds: number;
}

export interface WebhookSettings {
  /** How often an idle webhook worker looks for events to fan out and deliveries due (ms); 0: this instance delivers none. */
  pollMs: number;
  /** Any http(s) URL and any address (development only). */
  allowPrivate: boolean;
  /** Hosts (names or addresses, lower case) exempt from the https and public-address rules. */
  allowHosts: string[];
  /** Longest wait for a receiver's answer (connect to last byte). */
  timeoutMs: number;
  /** Attempts of one delivery before it is FAILED. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubled after each further one, with jitter, at most retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Consecutive failed attempts of an endpoint that disable it. */
  disableAfter: number;
}

export interface RetentionSettings {
  /** How often this instance runs a retention round (seconds); 0: never (docs/configuration.md, retention). */
  sweepSeconds: number;
  /** Outbox rows older than this (hours) that every consumer's cursor has passed are deleted (docs/events.md). */
  eventHours: number;
  /** DELIVERED and FAILED webhook deliveries whose last attempt is older than this (days) go, with their attempts. */
  webhookDeliveryDays: number;
  /** RESOLVED alerts resolved longer ago than this (days) are deleted. */
  alertDays: number;
}

export interface Config {
  port: number;
  /** Address to listen on (0.0.0.0: every interface). */
  host: string;
  databaseUrl?: string;
  /** DATABASE_DIRECT_URL: a session (not transaction-pooled) connection for LISTEN and migrations; default DATABASE_URL. */
  databaseDirectUrl?: string;
  dataDir: string;
  seedDemo: boolean;
  /** Secret for signing session tokens; when absent one is generated once and kept in the database. */
  jwtSecret?: string;
  sessionTtlSeconds: number;
  /** Trust X-Forwarded-For for the client address (only behind a proxy you control). */
  trustProxy: boolean;
  /** Session cookies get the Secure flag (turn off only for plain-HTTP development). */
  secureCookies: boolean;
  /**
   * Import worker loops in this process (0: this instance applies no imports). Default: 2 on PostgreSQL
   * (a job with independent chunks is applied on two connections at once), 1 on single-user PGlite.
   */
  importWorkers?: number;
  /** Worker threads that fit forecasts (GET /api/forecast); default every core but one, at least one. */
  forecastWorkers?: number;
  /**
   * Requests of one organization that may fit forecasts (or learn event lifts) at once in this process;
   * more are refused with 429 ENGINE_BUSY, so that one organization cannot fill the worker threads' queue.
   */
  forecastRequestsPerOrganization: number;
  /** How often an idle import worker looks for work, in milliseconds. */
  importPollMs: number;
  /** A completed import job of at least this many rows has the tables it wrote analyzed (0: never). */
  importAnalyzeMinRows: number;
  /** Transfer recommendations (docs/transfers.md). */
  transfers: {
    /** How long a PENDING recommendation stays actionable after it was generated, in hours. */
    recommendationTtlHours: number;
    /** How often an instance marks overdue PENDING recommendations EXPIRED, in seconds (0: never; reads still treat them as expired). */
    expirySweepSeconds: number;
    /** Cost of moving one unit between two locations that have no cost of their own. */
    defaultUnitCost: number;
  };
  /** Stock snapshots behind the inventory summary widget's asOf (docs/dashboard.md). */
  stockSnapshots: {
    /** How often an instance looks for organizations whose snapshot is due, in seconds (0: this instance takes none). */
    pollSeconds: number;
    /** A snapshot is due after this many ledger rows since the previous one... */
    everyRows: number;
    /** ...or when the previous one is this old and rows were written since, in hours. */
    everyHours: number;
    /** How far behind the database clock a snapshot's cut is, in seconds (longer than any stock-changing transaction). */
    settleSeconds: number;
  };
  /** How often an instance looks for organizations whose demand history sums are not made for this week, in seconds (0: this instance makes none; planning reads stay exact, only slower). */
  demandRatePollSeconds: number;
  /**
   * Loops that fit stored forecast runs' batches in this process (0: none). Default 1: a second loop keeps
   * the worker threads busy while the first writes (a 10,000-series run in 12.5 s instead of 17.5 s) but
   * doubles the request thread's share of reading and writing batches (GET /api/products p99 95 ms instead
   * of 55 ms during that run; BENCHMARKS.md).
   */
  forecastRunWorkers?: number;
  /** How often an idle forecast-run loop looks for batches, in milliseconds. */
  forecastRunPollMs: number;
  /**
   * How often this instance's event publisher looks for new outbox rows, in milliseconds (0: this instance
   * publishes nothing; it still delivers what another instance publishes). docs/events.md.
   */
  eventPublishPollMs: number;
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookSettings;
  /**
   * SECRETS_ENCRYPTION_KEY (current: seals) and SECRETS_ENCRYPTION_KEY_PREVIOUS (still opens): the keys, kept
   * outside the database, that seal webhook signing secrets at rest (docs/webhooks.md#the-secret-at-rest). Empty:
   * secrets are stored in clear.
   */
  secretsEncryption: SecretKeyring;
  /** The alerts evaluator and sweep (docs/alerts.md). */
  alerts: AlertSettings;
  /** How long the outbox, finished webhook deliveries and resolved alerts are kept, and the sweep that prunes them. */
  retention: RetentionSettings;
  /** Idempotency-Key (docs/idempotency.md). */
  idempotency: {
    /** How long a key and its answer are kept, in hours (at most 30 days). */
    ttlHours: number;
    /** How long a request holds its key before a retry may take it over (its process died), in seconds. */
    lockSeconds: number;
    /** How often an instance prunes expired keys, in seconds (0: never; expired keys count as absent all the same). */
    sweepSeconds: number;
  };
  /** How often an instance folds the row-count deltas behind list totals, in seconds (0: never). docs/lists.md. */
  rowCountCompactSeconds: number;
  /** Series per batch of a forecast run: the unit of claiming, of fitting and of the checkpoint. */
  forecastRunBatchSize: number;
  /** How long a claimed batch is a worker's; after that (its process died) another may claim it, in milliseconds. */
  forecastRunLeaseMs: number;
  /** Wait before a failed batch is tried again, doubled at each further failure, in milliseconds. */
  forecastRunRetryMs: number;
  /** How long this process reuses an API key lookup (0: look the key up on every request). */
  apiKeyCacheSeconds: number;
  /** How often open graphql-ws sockets have their credentials checked again, in seconds. */
  wsCredentialCheckSeconds: number;
  /** The largest graphql-ws message a client may send, in bytes (connection_init included). */
  wsMaxMessageBytes: number;
  /** Operations running at once on one graphql-ws socket. */
  wsMaxSubscriptions: number;
  /** graphql-ws sockets open at once for one API key or user, in this process. */
  wsMaxConnectionsPerCaller: number;
  /** PostgreSQL: distinct statements kept prepared per connection (0: prepare none, for example behind PgBouncer in transaction mode). */
  preparedStatements: number;
  /** Resource limits of the GraphQL endpoint. */
  graphql: GraphQLConfig;
  /** On SIGTERM/SIGINT, how long requests in flight may take to finish before their connections are cut. */
  shutdownTimeoutSeconds: number;
  /** LOG_LEVEL (fatal, error, warn, info, debug, trace, silent) and LOG_FORMAT (json, pretty; default: pretty in a terminal). */
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'; format?: 'json' | 'pretty' };
  /** METRICS_TOKEN: GET /metrics answers to it as a bearer token; absent, /metrics is 404. */
  metricsToken?: string;
  /** Browser origins allowed to call with CORS (and the session cookie); `*` any origin, without credentials. */
  corsOrigins: string[];
  /** Request limits per window; 0 turns a limit off (docs/limits.md). */
  rateLimit: {
    windowSeconds: number;
    perApiKey: number;
    perUser: number;
    perAddress: number;
    anonymousPerAddress: number;
    /** Where the counters live; default: redis with REDIS_URL, else postgres on PostgreSQL, memory on PGlite. */
    store?: 'memory' | 'postgres' | 'redis';
  };
  redisUrl?: string;
  /** Prefix of every Redis key this service writes (several deployments may share one Redis). */
  redisKeyPrefix: string;
  /** Sign-in throttling: attempts per window per account and per address before a lock (0: no limit). */
  signIn: { maxFailures: number; maxFailuresPerAddress: number; windowSeconds: number; lockSeconds: number };
  /** Slow-client bounds of the HTTP server (0 turns one off). */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number; maxConnectionsPerAddress: number };
}

/** A yes/no setting: true or 1, false or 0 (or unset: the fallback); anything else is a typo to report. */
function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const text = (env[name] ?? '').trim().toLowerCase();
  if (text === '') return fallback;
  if (text === 'true' || text === '1') return true;
  if (text === 'false' || text === '0') return false;
  throw new ConfigError(`${name} must be true, 1, false or 0, not "${env[name]}"`);
}

/** A limit that 0 or a typo must not turn off (or, for an interval, turn into a busy loop). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function logSettings(env: NodeJS.ProcessEnv): Config['log'] {
  const level = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not "${env.LOG_LEVEL}"`);
  const format = env.LOG_FORMAT?.toLowerCase();
  if (format !== undefined && format !== 'json' && format !== 'pretty') throw new ConfigError(`LOG_FORMAT must be json or pretty, not "${env.LOG_FORMAT}"`);
  return { level: level as Config['log']['level'], format };
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!(value > 0) || !Number.isFinite(value)) throw new ConfigError(`${name} must be a positive number, not "${env[name] ?? fallback}"`);
  return value;
}

function atMost(name: string, value: number, max: number): number {
  if (value > max) throw new ConfigError(`${name} must be at most ${max}, not ${value}`);
  return value;
}

/** Runs of a document on graphql-js before it is compiled (docs/graphql.md, Execution): 1 unless set (empty too); `off`: never. */
function jitAfterRuns(env: NodeJS.ProcessEnv): number {
  const setting = env.GRAPHQL_JIT_AFTER_RUNS?.trim().toLowerCase() || undefined;
  if (setting === 'off') return Infinity;
  return Math.floor(nonNegative({ GRAPHQL_JIT_AFTER_RUNS: setting }, 'GRAPHQL_JIT_AFTER_RUNS', 1));
}

/** A number of at least 0 (0 may turn something off). */
function nonNegative(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!(value >= 0) || !Number.isFinite(value)) throw new ConfigError(`${name} must be a number of at least 0, not "${env[name] ?? fallback}"`);
  return value;
}

/** A count of threads: a whole number of at least 1, or absent for the default. */
function threadCount(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a whole number of at least 1, not "${text}"`);
  return value;
}

/** A setting of the environment that cannot be used; its message names the variable (and never echoes a secret). */
export class ConfigError extends Error {}

const DATABASE_URL_FORM = 'postgresql://user:password@host:5432/database';

/** DATABASE_URL when it is a PostgreSQL URL, checked here so that a typo is named as such, not as an unreachable server. */
function databaseUrlOf(value: string | undefined, name = 'DATABASE_URL'): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The text is not repeated: it may hold a password.
    throw new ConfigError(`${name} is not a valid URL (expected ${DATABASE_URL_FORM}); unset it to use the embedded database`);
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new ConfigError(`${name} must start with postgresql:// or postgres:// (expected ${DATABASE_URL_FORM}), not ${url.protocol}//`);
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError(`${name} names no host (expected ${DATABASE_URL_FORM})`);
  return value;
}

/** A token worth the name: 16 to 512 printable characters, or nothing. */
function metricsTokenOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 16 || value.length > 512 || !/^[\x21-\x7e]+$/.test(value)) throw new ConfigError('METRICS_TOKEN must be 16 to 512 printable characters without spaces');
  return value;
}

/** One key setting: 32 bytes as 64 hex digits or base64; anything else names the variable (never the value). */
function secretKeyOf(env: NodeJS.ProcessEnv, name: string): SecretKey | undefined {
  const text = env[name];
  if (text === undefined || text.trim() === '') return undefined;
  const decoded = decodeSecretKey(text);
  if (!Buffer.isBuffer(decoded)) {
    throw new ConfigError(`${name} must be 32 bytes written as 64 hex digits or in base64 (make one with: openssl rand -base64 32), but ${decoded.reason}`);
  }
  return new SecretKey(decoded);
}

function secretsEncryptionOf(env: NodeJS.ProcessEnv): SecretKeyring {
  const current = secretKeyOf(env, 'SECRETS_ENCRYPTION_KEY');
  const previous = secretKeyOf(env, 'SECRETS_ENCRYPTION_KEY_PREVIOUS');
  if (previous && !current) {
    throw new ConfigError('SECRETS_ENCRYPTION_KEY_PREVIOUS is set but SECRETS_ENCRYPTION_KEY is not: set the new key as SECRETS_ENCRYPTION_KEY and the old one as SECRETS_ENCRYPTION_KEY_PREVIOUS');
  }
  // The same key twice is one key (a rotation's last step may leave both set alike for a while).
  return { current, previous: previous && previous.id !== current!.id ? previous : undefined };
}

const RATE_LIMIT_STORES = ['memory', 'postgres', 'redis'] as const;

function rateLimitStore(value: string | undefined): Config['rateLimit']['store'] {
  if (!value) return undefined;
  const store = RATE_LIMIT_STORES.find((s) => s === value);
  if (!store) throw new ConfigError(`RATE_LIMIT_STORE must be one of ${RATE_LIMIT_STORES.join(', ')}, got ${value}`);
  return store;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const apiKeyCacheSeconds = Number(env.API_KEY_CACHE_SECONDS ?? 5);
  return {
    port: Number(env.PORT ?? 4000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: databaseUrlOf(env.DATABASE_URL),
    databaseDirectUrl: databaseUrlOf(env.DATABASE_DIRECT_URL, 'DATABASE_DIRECT_URL'),
    dataDir: env.DATA_DIR ?? './.data',
    seedDemo: env.SEED_DEMO !== 'false',
    jwtSecret: env.JWT_SECRET || undefined,
    sessionTtlSeconds: Number(env.SESSION_TTL_SECONDS ?? 12 * 3600),
    trustProxy: env.TRUST_PROXY === 'true',
    importWorkers: env.IMPORT_WORKERS ? Number(env.IMPORT_WORKERS) : undefined,
    importPollMs: Number(env.IMPORT_POLL_MS ?? 1000),
    importAnalyzeMinRows: nonNegative(env, 'IMPORT_ANALYZE_MIN_ROWS', 1000),
    transfers: {
      recommendationTtlHours: positive(env, 'TRANSFER_RECOMMENDATION_TTL_HOURS', 7 * 24),
      expirySweepSeconds: nonNegative(env, 'TRANSFER_EXPIRY_SWEEP_SECONDS', 60),
      defaultUnitCost: nonNegative(env, 'TRANSFER_DEFAULT_UNIT_COST', 1),
    },
    stockSnapshots: {
      pollSeconds: nonNegative(env, 'STOCK_SNAPSHOT_POLL_SECONDS', 60),
      everyRows: positive(env, 'STOCK_SNAPSHOT_EVERY_ROWS', 10_000),
      everyHours: positive(env, 'STOCK_SNAPSHOT_EVERY_HOURS', 24),
      settleSeconds: positive(env, 'STOCK_SNAPSHOT_SETTLE_SECONDS', 300),
    },
    demandRatePollSeconds: nonNegative(env, 'DEMAND_RATE_POLL_SECONDS', 60),
    forecastRunWorkers: env.FORECAST_RUN_WORKERS ? Number(env.FORECAST_RUN_WORKERS) : undefined,
    forecastRunPollMs: positive(env, 'FORECAST_RUN_POLL_MS', 1000),
    eventPublishPollMs: nonNegative(env, 'EVENT_PUBLISH_POLL_MS', 100),
    webhooks: {
      pollMs: nonNegative(env, 'WEBHOOK_POLL_MS', 1000),
      allowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      allowHosts: (env.WEBHOOK_ALLOW_HOSTS ?? '').split(',').map((host) => host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')).filter(Boolean),
      timeoutMs: positive(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
      maxAttempts: positive(env, 'WEBHOOK_MAX_ATTEMPTS', 8),
      retryBaseMs: positive(env, 'WEBHOOK_RETRY_BASE_MS', 30_000),
      retryMaxMs: positive(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000),
      disableAfter: positive(env, 'WEBHOOK_DISABLE_AFTER', 20),
    },
    secretsEncryption: secretsEncryptionOf(env),
    alerts: {
      pollMs: nonNegative(env, 'ALERT_POLL_MS', 1000),
      sweepSeconds: nonNegative(env, 'ALERT_SWEEP_SECONDS', 300),
    },
    retention: {
      sweepSeconds: nonNegative(env, 'RETENTION_SWEEP_SECONDS', 600),
      eventHours: atMost('EVENT_RETENTION_HOURS', positive(env, 'EVENT_RETENTION_HOURS', 7 * 24), 365 * 24),
      webhookDeliveryDays: atMost('WEBHOOK_DELIVERY_RETENTION_DAYS', positive(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30), 3650),
      alertDays: atMost('ALERT_RETENTION_DAYS', positive(env, 'ALERT_RETENTION_DAYS', 90), 3650),
    },
    idempotency: {
      ttlHours: atMost('IDEMPOTENCY_KEY_TTL_HOURS', positive(env, 'IDEMPOTENCY_KEY_TTL_HOURS', 24), 30 * 24),
      lockSeconds: positive(env, 'IDEMPOTENCY_LOCK_SECONDS', 300),
      sweepSeconds: nonNegative(env, 'IDEMPOTENCY_SWEEP_SECONDS', 600),
    },
    rowCountCompactSeconds: atMost('ROW_COUNT_COMPACT_SECONDS', nonNegative(env, 'ROW_COUNT_COMPACT_SECONDS', 30), 3600),
    forecastRunBatchSize: positive(env, 'FORECAST_RUN_BATCH_SIZE', 250),
    forecastRequestsPerOrganization: positive(env, 'FORECAST_REQUESTS_PER_ORGANIZATION', 4),
    forecastRunLeaseMs: positive(env, 'FORECAST_RUN_LEASE_MS', 5 * 60_000),
    forecastRunRetryMs: positive(env, 'FORECAST_RUN_RETRY_MS', 2_000),
    forecastWorkers: threadCount(env, 'FORECAST_WORKERS'),
    apiKeyCacheSeconds,
    // Checking more often than keys are cached would mostly re-read the cache.
    wsCredentialCheckSeconds: positive(env, 'WS_CREDENTIAL_CHECK_SECONDS', Math.max(apiKeyCacheSeconds, 5)),
    wsMaxMessageBytes: positive(env, 'WS_MAX_MESSAGE_BYTES', 64 * 1024),
    wsMaxSubscriptions: positive(env, 'WS_MAX_SUBSCRIPTIONS', 20),
    wsMaxConnectionsPerCaller: positive(env, 'WS_MAX_CONNECTIONS_PER_CALLER', 10),
    preparedStatements: Number(env.PG_PREPARED_STATEMENTS ?? 500),
    secureCookies: env.SECURE_COOKIES ? env.SECURE_COOKIES === 'true' : env.NODE_ENV === 'production',
    graphql: {
      maxBodyBytes: positive(env, 'GRAPHQL_MAX_BODY_BYTES', 65_536),
      anonymousMaxBodyBytes: positive(env, 'GRAPHQL_ANONYMOUS_MAX_BODY_BYTES', 4_096),
      maxTokens: positive(env, 'GRAPHQL_MAX_TOKENS', 2_000),
      maxDepth: positive(env, 'GRAPHQL_MAX_DEPTH', 12),
      maxAliases: positive(env, 'GRAPHQL_MAX_ALIASES', 30),
      maxDirectives: positive(env, 'GRAPHQL_MAX_DIRECTIVES', 30),
      maxCost: positive(env, 'GRAPHQL_MAX_COST', 20_000),
      // Callers with credentials may always introspect; without, only when this is set.
      anonymousIntrospection: flag(env, 'GRAPHQL_PUBLIC_INTROSPECTION', false),
      trustedDocuments: env.GRAPHQL_TRUSTED_DOCUMENTS || undefined,
      jitAfterRuns: jitAfterRuns(env),
    },
    shutdownTimeoutSeconds: positive(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10),
    log: logSettings(env),
    metricsToken: metricsTokenOf(env.METRICS_TOKEN),
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((origin) => origin.trim()).filter(Boolean),
    rateLimit: {
      windowSeconds: Number(env.RATE_LIMIT_WINDOW_SECONDS ?? 60),
      perApiKey: Number(env.RATE_LIMIT_PER_API_KEY ?? 3000),
      perUser: Number(env.RATE_LIMIT_PER_USER ?? 1200),
      perAddress: Number(env.RATE_LIMIT_PER_ADDRESS ?? 6000),
      anonymousPerAddress: Number(env.RATE_LIMIT_ANONYMOUS_PER_ADDRESS ?? 300),
      store: rateLimitStore(env.RATE_LIMIT_STORE),
    },
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'scm:',
    signIn: {
      maxFailures: Number(env.SIGN_IN_MAX_FAILURES ?? 10),
      maxFailuresPerAddress: Number(env.SIGN_IN_MAX_FAILURES_PER_ADDRESS ?? 50),
      windowSeconds: Number(env.SIGN_IN_WINDOW_SECONDS ?? 900),
      lockSeconds: Number(env.SIGN_IN_LOCK_SECONDS ?? 900),
    },
    http: {
      headersTimeoutMs: Number(env.HTTP_HEADERS_TIMEOUT_MS ?? 10_000),
      requestTimeoutMs: Number(env.HTTP_REQUEST_TIMEOUT_MS ?? 120_000),
      keepAliveTimeoutMs: Number(env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? 5_000),
      maxConnectionsPerAddress: Number(env.HTTP_MAX_CONNECTIONS_PER_ADDRESS ?? 100),
    },
  };
}

export interface Config {
  port: number;
  /** Address to listen on (0.0.0.0: every interface). */
  host: string;
  databaseUrl?: string;
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
  /** How often an idle import worker looks for work, in milliseconds. */
  importPollMs: number;
  /** How long this process reuses an API key lookup (0: look the key up on every request). */
  apiKeyCacheSeconds: number;
  /** PostgreSQL: distinct statements kept prepared per connection (0: prepare none, for example behind PgBouncer in transaction mode). */
  preparedStatements: number;
  /** Request limits per window; 0 turns a limit off (README: Rate limits). */
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

const RATE_LIMIT_STORES = ['memory', 'postgres', 'redis'] as const;

function rateLimitStore(value: string | undefined): Config['rateLimit']['store'] {
  if (!value) return undefined;
  const store = RATE_LIMIT_STORES.find((s) => s === value);
  if (!store) throw new Error(`RATE_LIMIT_STORE must be one of ${RATE_LIMIT_STORES.join(', ')}, got ${value}`);
  return store;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 4000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? './.data',
    seedDemo: env.SEED_DEMO !== 'false',
    jwtSecret: env.JWT_SECRET || undefined,
    sessionTtlSeconds: Number(env.SESSION_TTL_SECONDS ?? 12 * 3600),
    trustProxy: env.TRUST_PROXY === 'true',
    importWorkers: env.IMPORT_WORKERS ? Number(env.IMPORT_WORKERS) : undefined,
    importPollMs: Number(env.IMPORT_POLL_MS ?? 1000),
    apiKeyCacheSeconds: Number(env.API_KEY_CACHE_SECONDS ?? 5),
    preparedStatements: Number(env.PG_PREPARED_STATEMENTS ?? 500),
    secureCookies: env.SECURE_COOKIES ? env.SECURE_COOKIES === 'true' : env.NODE_ENV === 'production',
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

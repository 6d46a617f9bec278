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
}

/** A setting of the environment that cannot be used; its message names the variable (and never echoes a secret). */
export class ConfigError extends Error {}

const DATABASE_URL_FORM = 'postgresql://user:password@host:5432/database';

/** DATABASE_URL when it is a PostgreSQL URL, checked here so that a typo is named as such, not as an unreachable server. */
function databaseUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The text is not repeated: it may hold a password.
    throw new ConfigError(`DATABASE_URL is not a valid URL (expected ${DATABASE_URL_FORM}); unset it to use the embedded database`);
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new ConfigError(`DATABASE_URL must start with postgresql:// or postgres:// (expected ${DATABASE_URL_FORM}), not ${url.protocol}//`);
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError(`DATABASE_URL names no host (expected ${DATABASE_URL_FORM})`);
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 4000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: databaseUrlOf(env.DATABASE_URL),
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
  };
}

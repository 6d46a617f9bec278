import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';

export type LimiterStoreKind = 'memory' | 'postgres' | 'redis';

export interface CounterOptions {
  /** Points per window. */
  points: number;
  windowSeconds: number;
  /** Once a key passes `points`, it stays refused this long (from that moment). */
  blockSeconds?: number;
}

/** Where counters live: one process (memory), or shared by every instance (PostgreSQL, Redis). */
export interface LimiterStore {
  kind: LimiterStoreKind;
  /** A family of counters whose keys start with `name`. */
  counter(name: string, options: CounterOptions): RateLimiterAbstract;
  close(): Promise<void>;
}

/** The table of migration rate_limits (rate-limiter-flexible's layout: key, points, expire). */
const TABLE = 'rate_limits';

export function limiterStoreKind(config: Config, database: Database): LimiterStoreKind {
  if (config.rateLimit.store) return config.rateLimit.store;
  if (config.redisUrl) return 'redis';
  return database.kind === 'postgres' ? 'postgres' : 'memory';
}

async function connectRedis(url: string, log: (message: string) => void): Promise<Redis> {
  // Without an offline queue a command fails at once while Redis is away, and the counters fall back
  // to this process' memory (insuranceLimiter) instead of holding requests up.
  const redis = new Redis(url, { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (error) {
    log(`rate limits: Redis at ${url} is not answering (${(error as Error).message}); counting in memory until it does`);
  }
  return redis;
}

export async function openLimiterStore(config: Config, database: Database, log: (message: string) => void = () => {}): Promise<LimiterStore> {
  const kind = limiterStoreKind(config, database);
  const memory = (name: string, options: CounterOptions) =>
    new RateLimiterMemory({ keyPrefix: name, points: options.points, duration: options.windowSeconds, blockDuration: options.blockSeconds });
  if (kind === 'memory') return { kind, counter: memory, close: async () => {} };

  if (kind === 'redis') {
    if (!config.redisUrl) throw new Error('RATE_LIMIT_STORE=redis needs REDIS_URL');
    const redis = await connectRedis(config.redisUrl, log);
    return {
      kind,
      counter: (name, options) =>
        new RateLimiterRedis({
          storeClient: redis,
          rejectIfRedisNotReady: true,
          keyPrefix: `${config.redisKeyPrefix}${name}`,
          points: options.points,
          duration: options.windowSeconds,
          blockDuration: options.blockSeconds,
          insuranceLimiter: memory(name, options),
        }),
      close: async () => {
        redis.disconnect();
      },
    };
  }

  const pool = database.pool;
  if (!pool) throw new Error('RATE_LIMIT_STORE=postgres needs DATABASE_URL');
  let sweeping = false;
  return {
    kind,
    counter: (name, options) => {
      // One family per process deletes the expired rows of all of them (every 5 minutes).
      const sweeper = !sweeping;
      sweeping = true;
      return new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: TABLE,
        tableCreated: true,
        clearExpiredByTimeout: sweeper,
        keyPrefix: name,
        points: options.points,
        duration: options.windowSeconds,
        blockDuration: options.blockSeconds,
        insuranceLimiter: memory(name, options),
      });
    },
    close: async () => {},
  };
}

import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQueryable } from '@prisma/driver-adapter-utils';

/** Told the seconds of each statement the client ran (the wait for a pooled connection included). */
export type StatementTimer = (seconds: number) => void;

async function timed<T>(run: () => Promise<T>, observe: StatementTimer): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    observe((performance.now() - started) / 1000);
  }
}

/** The adapter (or a transaction of it) as it is, its statements timed; its transactions timed the same way. */
function timedQueryable<T extends SqlQueryable>(target: T, observe: StatementTimer): T {
  const own: Partial<SqlDriverAdapter> = {
    queryRaw: (query) => timed(() => target.queryRaw(query), observe),
    executeRaw: (query) => timed(() => target.executeRaw(query), observe),
  };
  if ('startTransaction' in target) {
    const adapter = target as unknown as SqlDriverAdapter;
    own.startTransaction = async (level) => timedQueryable(await adapter.startTransaction(level), observe);
  }
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(own, property)) return own[property as keyof typeof own];
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/**
 * A driver adapter factory whose adapters time every statement (the Prometheus histogram of query durations),
 * for the cost of a closure per statement: Prisma's own query events would build an event object for each.
 */
export function timedAdapterFactory<F extends SqlDriverAdapterFactory>(factory: F, observe: StatementTimer): F {
  return new Proxy(factory, {
    get(object, property) {
      if (property === 'connect') return async () => timedQueryable(await object.connect(), observe);
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';

/**
 * A subscription as graphql-js runs one, except that each event's selection executes with a context of its own (a
 * shallow copy of the subscription's): the per-request caches keyed by the context (record and relation loaders,
 * the Prisma plugin's, scope checks) then last one event, as they last one HTTP request. With the one context of
 * the subscription, a record read for one event was answered from the cache in every later event of a socket that
 * may stay open for days (a renamed product kept its old name), and the caches grew with every id seen.
 */
export async function subscribeWithEventContexts(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  return mapEvents(stream, (payload) => execute({ ...args, rootValue: payload, contextValue: { ...(args.contextValue as object) } }));
}

/** The events mapped one by one; closing the mapped stream closes the source (the service stops listening). */
function mapEvents<T, R>(source: AsyncIterable<T>, map: (value: T) => R | Promise<R>): AsyncGenerator<R> {
  const iterator = source[Symbol.asyncIterator]();
  const close = async () => {
    await iterator.return?.();
  };
  const mapped: AsyncGenerator<R> = {
    async next() {
      const step = await iterator.next();
      if (step.done) return { done: true, value: undefined };
      try {
        return { done: false, value: await map(step.value) };
      } catch (error) {
        await close().catch(() => {});
        throw error;
      }
    },
    async return() {
      await close();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      if (iterator.throw) {
        const step = await iterator.throw(error);
        if (!step.done) return { done: false, value: await map(step.value) };
        return { done: true, value: undefined };
      }
      await close();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return mapped;
    },
  };
  return mapped;
}

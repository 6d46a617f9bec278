import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, type Logger } from 'pino';

/** The request a piece of work runs for (set by the HTTP handler around each request). */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

let root: Logger = pino({ level: 'silent' });

/** The process's logger (src/server/logger.ts makes it at start); silent until then, as in tests. */
export function setRootLogger(logger: Logger) {
  root = logger;
}

/** The logger of the work at hand: during a request, its lines carry the request id. */
export function currentLogger(): Logger {
  const scope = requestScope.getStore();
  return scope ? root.child({ requestId: scope.requestId }) : root;
}

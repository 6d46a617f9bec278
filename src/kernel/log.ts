import { pino, type Logger } from 'pino';

let root: Logger = pino({ level: 'silent' });

/** The process's logger (src/server/logger.ts makes it at start); silent until then, as in tests. */
export function setRootLogger(logger: Logger) {
  root = logger;
}

export function currentLogger(): Logger {
  return root;
}

/**
 * Each HTTP request's id (src/server/request-log.ts sets it), for lines written about a request away from the
 * handler (an unexpected error of the REST adapter). A map rather than AsyncLocalStorage: on Node 20 that runs on
 * async hooks, a cost on every promise of every request.
 */
export const requestIds = new WeakMap<Request, string>();

/** The request an error of a GraphQL execution came from, for the line Yoga writes when it masks the error. */
export const errorRequestIds = new WeakMap<object, string>();

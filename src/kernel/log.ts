import { pino, type Logger } from 'pino';

let root: Logger = pino({ level: 'silent' });

/** The process's logger (src/server/logger.ts makes it at start); silent until then, as in tests. */
export function setRootLogger(logger: Logger) {
  root = logger;
}

export function currentLogger(): Logger {
  return root;
}

const unredacted = new WeakMap<Logger, Logger>();

/**
 * The process's logger without its redaction, for the one line each request writes: every field of it is
 * named by our code and holds a plain value, never a header or body, so none of the censored keys can occur
 * in it, and the censor's wildcard paths cost ~40 µs a line (~3% of a list request's CPU).
 */
export function requestLineLogger(): Logger {
  let logger = unredacted.get(root);
  if (!logger) unredacted.set(root, (logger = root.child({}, { redact: { paths: [] } })));
  return logger;
}

/**
 * Each HTTP request's id (src/server/request-log.ts sets it), for lines written about a request away from the
 * handler (an unexpected error of the REST adapter). A map rather than AsyncLocalStorage: on Node 20 that runs on
 * async hooks, a cost on every promise of every request.
 */
export const requestIds = new WeakMap<Request, string>();

/** The request an error of a GraphQL execution came from, for the line Yoga writes when it masks the error. */
export const errorRequestIds = new WeakMap<object, string>();

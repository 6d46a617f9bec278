import { ConfigError, loadConfig } from './config.js';
import { startBanner } from './server/banner.js';
import { startServer } from './server/start.js';
import { DataDirInUseError } from './db/data-dir-lock.js';
import { setRootLogger } from './kernel/log.js';
import { createLogger } from './server/logger.js';

function configOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  }
}

const config = configOrExit();
const logger = createLogger(config.log);
setRootLogger(logger);
const running = await startServer(config, { log: (m) => logger.info(m) }).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
});
// The banner is for a person at a terminal; a log pipeline gets its lines as log lines (banner: true).
const toTerminal = (config.log.format ?? (process.stdout.isTTY ? 'pretty' : 'json')) === 'pretty';
for (const line of startBanner(running, config.dataDir)) {
  if (toTerminal) console.log(line);
  else logger.info({ banner: true }, line);
}

// Time for the workers and the pool to close after requests have had theirs; past it the process exits anyway.
const CLOSING_MARGIN_MS = 5_000;

/**
 * A SIGINT within this long of a first SIGINT is the same stop: Ctrl-C in a terminal reaches npm and the
 * server at once (the whole process group), and npm relays it to the server a moment later.
 */
const SAME_STOP_MS = 300;

let stopping = false;
let firstInterruptAt: number | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signal === 'SIGINT' && firstInterruptAt !== null && Date.now() - firstInterruptAt < SAME_STOP_MS) return;
    if (stopping) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    if (signal === 'SIGINT') firstInterruptAt = Date.now();
    const graceMs = config.shutdownTimeoutSeconds * 1000;
    logger.info(`${signal}: shutting down (requests in flight have ${config.shutdownTimeoutSeconds} s to finish; ${signal} again exits at once)`);
    setTimeout(() => {
      logger.error(`shutdown did not finish within ${config.shutdownTimeoutSeconds} s + ${CLOSING_MARGIN_MS / 1000} s: exiting`);
      process.exit(1);
    }, graceMs + CLOSING_MARGIN_MS).unref();
    running.shutdown(graceMs).then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

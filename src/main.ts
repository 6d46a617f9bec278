import { ConfigError, loadConfig } from './config.js';
import { startBanner } from './server/banner.js';
import { startServer } from './server/start.js';
import { DataDirInUseError } from './db/data-dir-lock.js';

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
const running = await startServer(config, { log: (m) => console.log(m) }).catch((error: unknown) => {
  if (!(error instanceof DataDirInUseError)) throw error;
  process.stderr.write(`error: ${error.message}\n`);
  process.exit(1);
});
for (const line of startBanner(running, config.dataDir)) console.log(line);

// Time for the workers and the pool to close after requests have had theirs; past it the process exits anyway.
const CLOSING_MARGIN_MS = 5_000;

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      console.log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    const graceMs = config.shutdownTimeoutSeconds * 1000;
    console.log(`${signal}: shutting down (requests in flight have ${config.shutdownTimeoutSeconds} s to finish; ${signal} again exits at once)`);
    setTimeout(() => {
      console.error(`shutdown did not finish within ${config.shutdownTimeoutSeconds} s + ${CLOSING_MARGIN_MS / 1000} s: exiting`);
      process.exit(1);
    }, graceMs + CLOSING_MARGIN_MS).unref();
    running.shutdown(graceMs).then(
      () => {
        console.log('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  });
}

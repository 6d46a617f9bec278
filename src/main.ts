import { ConfigError, loadConfig } from './config.js';
import { startServer } from './server/start.js';

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
const running = await startServer(config, { log: (m) => console.log(m) });
console.log(`supply chain service on ${running.url} (${running.database.kind}${running.database.kind === 'pglite' ? `, data in ${config.dataDir}` : ''})`);
console.log(`  GraphQL and GraphiQL: ${running.url}/graphql   REST: ${running.url}/api   OpenAPI: ${running.url}/api/openapi.json`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    running.close().then(() => process.exit(0));
  });
}

import { type RunningServer, urlHost, WILDCARD_HOSTS } from './start.js';

/** What `npm start` prints once it listens: the address it really listens on, and how to reach it from this machine. */
export function startBanner(running: Pick<RunningServer, 'listening' | 'database'>, dataDir: string): string[] {
  const { host, port } = running.listening;
  const listening = `http://${urlHost(host)}:${port}`;
  const local = WILDCARD_HOSTS.has(host) ? `http://localhost:${port}` : listening;
  const storage = running.database.kind === 'pglite' ? `, data in ${dataDir}` : '';
  return [
    `supply chain service listening on ${listening} (${running.database.kind}${storage})`,
    ...(local !== listening ? [`  on this machine: ${local} (every interface of this host is served; HOST=127.0.0.1 keeps it local)`] : []),
    `  GraphQL and GraphiQL: ${local}/graphql   REST: ${local}/api   OpenAPI: ${local}/api/openapi.json   REST reference: ${local}/api/docs`,
  ];
}

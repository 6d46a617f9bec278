import type { Server, ServerOptions } from 'node:http';
import type { Config } from '../config.js';

/**
 * Bounds on slow clients: the whole header block within HTTP_HEADERS_TIMEOUT_MS and the whole request
 * (body included) within HTTP_REQUEST_TIMEOUT_MS, or Node answers 408 and closes the connection.
 */
export function httpServerOptions(http: Config['http']): ServerOptions {
  return {
    headersTimeout: http.headersTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    // Node looks for expired requests this often (its default, 30 s, would let a slow client stay
    // up to 30 s past the timeouts above).
    connectionsCheckingInterval: Math.max(250, Math.min(1000, ...[http.headersTimeoutMs, http.requestTimeoutMs].filter((ms) => ms > 0))),
  };
}

/**
 * At most `max` open connections from one peer address (0: no cap); further ones are closed at once.
 * The peer is the TCP one: behind a proxy every connection comes from the proxy.
 */
export function capConnectionsPerAddress(server: Server, max: number) {
  if (!(max > 0)) return;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

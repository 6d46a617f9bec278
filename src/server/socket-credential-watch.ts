import type { WebSocket } from 'ws';
import type { App, AuthInfo } from '../context.js';
import { DomainError } from '../kernel/errors.js';
import { authenticateSocket, closeForCredentials, type SocketCredentials } from './socket-credentials.js';

interface Watched {
  socket: WebSocket;
  credentials: SocketCredentials;
  /** The key or user the socket is open for. */
  actor: string;
  expiry?: NodeJS.Timeout;
}

const actorOf = (auth: AuthInfo) => `${auth.actor.type}:${auth.actor.id}`;

// The longest delay a timer takes (a longer one fires at once); a later expiry is left to the periodic check.
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Keeps the credentials of open graphql-ws sockets under watch, so that a socket that only listens to
 * a running subscription ends when its credentials do: every `intervalMs` each distinct set of
 * credentials is authenticated again (through the API key cache, as a request would be) and the sockets
 * whose credentials were refused are closed like a refused connection_init. Credentials that end on
 * their own (a session's or key's expiresAt) close their sockets at that moment.
 */
export function watchSocketCredentials(app: App, intervalMs: number) {
  const watched = new Map<WebSocket, Watched>();
  const socketsPerActor = new Map<string, number>();
  let checking = false;

  async function check(group: Watched[]) {
    try {
      const context = await authenticateSocket(app, group[0]!.credentials);
      for (const entry of group) scheduleExpiry(entry, context.auth!);
    } catch (error) {
      // Anything but a refusal (the database unreachable, say) is tried again at the next check.
      if (!(error instanceof DomainError)) return;
      for (const entry of group) closeForCredentials(entry.socket, error);
    }
  }

  function scheduleExpiry(entry: Watched, auth: AuthInfo) {
    clearTimeout(entry.expiry);
    entry.expiry = undefined;
    // The socket may have closed, or the watch stopped, while its credentials were being checked.
    if (!auth.expiresAt || watched.get(entry.socket) !== entry) return;
    const delay = Math.max(auth.expiresAt.getTime() - Date.now(), 0) + 10;
    if (delay > MAX_DELAY_MS) return;
    entry.expiry = setTimeout(() => void check([entry]), delay);
    entry.expiry.unref();
  }

  async function checkAll() {
    // A check that outlasts the interval is not started twice.
    if (checking) return;
    checking = true;
    try {
      const groups = new Map<string, Watched[]>();
      for (const entry of watched.values()) {
        const key = JSON.stringify([entry.credentials.clientIp, ...entry.credentials.headers]);
        const group = groups.get(key);
        if (group) group.push(entry);
        else groups.set(key, [entry]);
      }
      // One credential at a time, so that many sockets do not take every database connection at once.
      for (const group of groups.values()) await check(group);
    } finally {
      checking = false;
    }
  }

  const timer = setInterval(() => void checkAll(), Math.min(intervalMs, MAX_DELAY_MS));
  timer.unref();

  return {
    /** Sockets open for the key or user of these credentials. */
    socketsOf(auth: AuthInfo) {
      return socketsPerActor.get(actorOf(auth)) ?? 0;
    },
    /** Watches an accepted socket until it closes. */
    add(socket: WebSocket, credentials: SocketCredentials, auth: AuthInfo) {
      // Closed while its credentials were being checked: its close event has passed.
      if (socket.readyState !== socket.OPEN) return;
      const entry: Watched = { socket, credentials, actor: actorOf(auth) };
      watched.set(socket, entry);
      socketsPerActor.set(entry.actor, (socketsPerActor.get(entry.actor) ?? 0) + 1);
      scheduleExpiry(entry, auth);
      socket.once('close', () => {
        clearTimeout(entry.expiry);
        if (!watched.delete(socket)) return;
        const left = socketsPerActor.get(entry.actor)! - 1;
        if (left) socketsPerActor.set(entry.actor, left);
        else socketsPerActor.delete(entry.actor);
      });
    },
    /** The socket's credentials were just accepted again (a new operation): follow their current expiry. */
    renew(socket: WebSocket, auth: AuthInfo) {
      const entry = watched.get(socket);
      if (entry) scheduleExpiry(entry, auth);
    },
    stop() {
      clearInterval(timer);
      for (const entry of watched.values()) clearTimeout(entry.expiry);
      watched.clear();
      socketsPerActor.clear();
    },
  };
}

import { expect } from 'vitest';
import WebSocket from 'ws';

export interface Closed {
  code: number;
  reason: string;
}

/**
 * A raw graphql-transport-ws connection, so a test sees every message and the close exactly as sent:
 * `messages` collects what the server sent, `closed` resolves with the close code and reason.
 */
export function wsConnection(baseUrl: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: any[] = [];
  const waiters: (() => void)[] = [];
  const closed = new Promise<Closed>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  socket.on('error', () => {});
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    waiters.splice(0).forEach((wake) => wake());
  });
  closed.then(() => waiters.splice(0).forEach((wake) => wake()));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('close', () => reject(new Error('closed before it opened')));
  });
  let ids = 0;

  /** The first message that matches, waiting for it; undefined when the socket closes first. */
  async function message(match: (m: any) => boolean): Promise<any> {
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (socket.readyState === WebSocket.CLOSED) return undefined;
      await new Promise<void>((wake) => waiters.push(wake));
    }
  }

  return {
    socket,
    messages,
    closed,
    opened,
    message,
    async send(message: unknown) {
      await opened;
      socket.send(JSON.stringify(message));
    },
    /** connection_init with these params, expecting connection_ack. */
    async init(payload: Record<string, unknown>) {
      await this.send({ type: 'connection_init', payload });
      expect(await message((m) => m.type === 'connection_ack')).toBeTruthy();
    },
    /** Sends a subscribe message: its id. */
    async subscribe(query: string, variables: Record<string, unknown> = {}) {
      const id = String(++ids);
      await this.send({ id, type: 'subscribe', payload: { query, variables } });
      return id;
    },
    /** The next (or error) message of operation `id`. */
    result: (id: string) => message((m) => m.id === id && (m.type === 'next' || m.type === 'error')),
    close: () => socket.close(),
  };
}

/** GET /health answers 200 within a short time. */
export async function expectHealthy(baseUrl: string) {
  const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(3000) });
  expect(response.status).toBe(200);
}

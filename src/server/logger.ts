import type { DestinationStream } from 'pino';
import { destination, pino, type Logger, type LevelWithSilent } from 'pino';
import pretty from 'pino-pretty';

export const LOG_LEVELS: readonly LevelWithSilent[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Anything that may hold a secret is censored wherever it appears in a line's object, one or two levels deep:
 * credentials (authorization, cookies, API keys, tokens), passwords and webhook secrets. The request lines name no
 * header or body at all; this is the net under every other line.
 */
const SECRET_KEYS = ['authorization', 'cookie', '["set-cookie"]', 'password', 'newPassword', 'currentPassword', 'token', 'accessToken', 'refreshToken', 'apiKey', 'key', 'secret', '["x-api-key"]'];
const under = (prefix: string, key: string) => (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`);
export const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((k) => under('*', k)), ...SECRET_KEYS.map((k) => under('*.*', k))];

/**
 * The process's logger: one JSON object per line (pino), or readable lines when stdout is a terminal
 * (LOG_FORMAT=json or pretty forces either). LOG_LEVEL: fatal, error, warn, info (default), debug, trace, silent.
 */
export function createLogger(options: { level: LevelWithSilent; format?: 'json' | 'pretty'; destination?: DestinationStream }): Logger {
  const base = { level: options.level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  const format = options.format ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (options.destination) return pino(base, options.destination);
  if (format === 'pretty') return pino(base, pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  // Written asynchronously: lines that come while a write is under way go out together with the next one, not
  // one system call each (a write per request line was ~2% of a small request's CPU). pino flushes what is
  // left when the process exits.
  return pino(base, destination({ dest: 1, sync: false }));
}

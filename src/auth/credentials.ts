import { DomainError } from '../kernel/errors.js';

/** Name of the cookie that carries a browser's session token (set by POST /api/auth/sign-in). */
export const SESSION_COOKIE = 'scm_session';

export interface Credentials {
  /** Bearer token, X-API-Key value or session cookie, whichever came first in that order. */
  token?: string;
  organizationId?: string;
  clientIp: string;
}

function cookie(header: string | null, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/**
 * Which header carries the credentials, in the order they are taken. Only `cookie` is sent by a browser
 * on its own, so only it needs the cross-site request checks.
 */
export function credentialSource(headers: Headers): 'authorization' | 'x-api-key' | 'cookie' | null {
  if (headers.get('authorization')) return 'authorization';
  if (headers.get('x-api-key')?.trim()) return 'x-api-key';
  return cookie(headers.get('cookie'), SESSION_COOKIE) ? 'cookie' : null;
}

export function credentialsFrom(headers: Headers, clientIp: string): Credentials {
  const authorization = headers.get('authorization');
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (authorization && !bearer) throw new DomainError('MISSING_AUTHORIZATION', 'Authorization header must be "Bearer <API key or token>"');
  return {
    token: bearer ?? headers.get('x-api-key')?.trim() ?? cookie(headers.get('cookie'), SESSION_COOKIE),
    organizationId: headers.get('x-organization-id')?.trim() || undefined,
    clientIp,
  };
}

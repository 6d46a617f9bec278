import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config.js';
import type { Db } from '../../db/transactions.js';

const ISSUER = 'supply-chain-service';

/** JWT_SECRET, or a secret generated once and kept in the database so every instance shares it. */
export async function loadJwtKey(prisma: Db, config: Config): Promise<Uint8Array> {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const generated = randomBytes(48).toString('base64url');
  // Two instances starting together both try; the first insert wins and both read it back.
  await prisma.systemSetting.upsert({ where: { key: 'jwt_secret' }, create: { key: 'jwt_secret', value: generated }, update: {} });
  const row = await prisma.systemSetting.findUniqueOrThrow({ where: { key: 'jwt_secret' } });
  return new TextEncoder().encode(row.value);
}

export interface SessionClaims {
  userId: string;
  sessionId: string;
  organizationId: string;
}

export async function signSessionToken(key: Uint8Array, claims: SessionClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, org: claims.organizationId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key);
}

/** The claims of a valid token, or null when it is malformed, forged or expired. */
export async function verifySessionToken(key: Uint8Array, token: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.org !== 'string') return null;
    return { userId: payload.sub, sessionId: payload.sid, organizationId: payload.org };
  } catch {
    return null;
  }
}

export const looksLikeJwt = (token: string) => /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(token);

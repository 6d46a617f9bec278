import { createHash, hkdfSync } from 'node:crypto';
import { aesGcmOpen, aesGcmSeal } from '../kernel/aes-gcm.js';

/**
 * A stored answer is sealed with a key derived from the caller's Idempotency-Key (and organization), which is
 * never stored itself (only its hash, with another label): the table holds answers that carried secrets (a
 * new API key, a webhook secret) and only a caller who still holds the Idempotency-Key can open them.
 */
const cipherKey = (idempotencyKey: string, organizationId: string) =>
  Buffer.from(hkdfSync('sha256', idempotencyKey, organizationId, 'scm idempotency answer v1', 32));

/** The lookup hash of a key (hex): a different derivation from the cipher key's. */
export const idempotencyKeyHash = (idempotencyKey: string) => createHash('sha256').update('scm idempotency key v1\0').update(idempotencyKey).digest('hex');

export interface StoredAnswer {
  headers: Record<string, string>;
  body: string;
}

/** nonce (12) | tag (16) | AES-256-GCM ciphertext of the answer as JSON (src/kernel/aes-gcm.ts). */
export function sealAnswer(answer: StoredAnswer, idempotencyKey: string, organizationId: string): Uint8Array {
  return aesGcmSeal(cipherKey(idempotencyKey, organizationId), Buffer.from(JSON.stringify(answer), 'utf8'));
}

/** The answer, or null when the seal does not open (a hash collision; a tampered row). */
export function openAnswer(sealed: Uint8Array, idempotencyKey: string, organizationId: string): StoredAnswer | null {
  const opened = aesGcmOpen(cipherKey(idempotencyKey, organizationId), sealed);
  if (!opened) return null;
  try {
    return JSON.parse(opened.toString('utf8')) as StoredAnswer;
  } catch {
    return null;
  }
}

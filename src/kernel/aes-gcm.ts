import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM in the one layout this project stores: nonce (12 bytes) | tag (16) | ciphertext. A fresh random
 * nonce per seal; `aad` (additional authenticated data) is bound to the seal without being stored in it, so a
 * seal opens only with the same aad (for example the row it belongs to). Used by the idempotency answers
 * (src/server/idempotency-seal.ts) and the webhook signing secrets (src/services/webhooks/webhook-secret-store.ts).
 */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function aesGcmSeal(key: Uint8Array, plaintext: Uint8Array, aad?: Uint8Array): Buffer {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  if (aad) cipher.setAAD(aad);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), sealed]);
}

/** The plaintext, or null when the seal does not open (another key, another aad, a truncated or tampered value). */
export function aesGcmOpen(key: Uint8Array, sealed: Uint8Array, aad?: Uint8Array): Buffer | null {
  if (key.length !== 32) throw new Error('AES-256-GCM needs a 32-byte key');
  const bytes = Buffer.from(sealed);
  if (bytes.length < NONCE_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    if (aad) decipher.setAAD(aad);
    return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

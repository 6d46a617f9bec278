import { createHash, hkdfSync } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * A data-encryption key from the environment (SECRETS_ENCRYPTION_KEY, SECRETS_ENCRYPTION_KEY_PREVIOUS), kept
 * outside the database. Its `id` (8 hex digits of a labelled SHA-256 of the key) is written next to every value it
 * seals, so a value names the key that opens it and a rotation can tell which rows still need re-sealing; the id
 * says nothing useful about the key. The key bytes never leave this object but as keys derived per purpose (HKDF),
 * and it prints (JSON, console, a logged config) as its id only.
 */
export class SecretKey {
  readonly id: string;
  readonly #key: Buffer;

  constructor(key: Uint8Array) {
    if (key.length !== 32) throw new Error('A secrets encryption key is 32 bytes');
    this.#key = Buffer.from(key);
    this.id = createHash('sha256').update('scm secrets key id v1\0').update(this.#key).digest('hex').slice(0, 8);
  }

  /** A 32-byte key for one purpose (HKDF-SHA256 with the purpose as info): one column's seals never open another's. */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), `scm ${purpose}`, 32));
  }

  toJSON() {
    return { id: this.id };
  }

  [inspect.custom]() {
    return `SecretKey(${this.id})`;
  }
}

/** The key that seals (current) and the one that still opens what it sealed before a rotation (previous). */
export interface SecretKeyring {
  current?: SecretKey;
  previous?: SecretKey;
}

/**
 * The 32 bytes a key setting holds, written as 64 hex digits or as base64 / base64url (44 characters with
 * padding, 43 without); a reason otherwise. The value itself is never part of the reason.
 */
export function decodeSecretKey(text: string): Buffer | { reason: string } {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === 32) return bytes;
    return { reason: `it decodes to ${bytes.length} bytes, not 32` };
  }
  return { reason: `it is neither 64 hex digits nor base64 (${value.length} characters)` };
}

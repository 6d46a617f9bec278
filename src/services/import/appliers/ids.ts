import { randomBytes } from 'node:crypto';

/**
 * `count` ids of the same kind as src/db/ids.ts (UUID version 7, time-ordered) for the rows of one
 * chunk, from a single draw of random bytes: one draw per id was a visible share of a chunk's time.
 */
export function chunkIds(count: number, now = Date.now()): string[] {
  const pool = randomBytes(16 * count);
  const stamp = now.toString(16).padStart(12, '0');
  const ids: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = i * 16;
    pool[at + 6] = (pool[at + 6]! & 0x0f) | 0x70;
    pool[at + 8] = (pool[at + 8]! & 0x3f) | 0x80;
    const hex = pool.toString('hex', at + 6, at + 16);
    ids[i] = `${stamp.slice(0, 8)}-${stamp.slice(8)}-${hex.slice(0, 4)}-${hex.slice(4, 8)}-${hex.slice(8)}`;
  }
  return ids;
}

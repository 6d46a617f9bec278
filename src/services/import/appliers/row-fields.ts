import { MAX_INT } from '../../../kernel/input-limits.js';
import type { RowRejection } from '../kinds.js';

/**
 * Field readers for import rows. Each returns the value or records a rejection and returns
 * `INVALID`. CSV loaders send every value as text, so numbers may also come as numeric strings.
 */
export const INVALID = Symbol('invalid');
type Invalid = typeof INVALID;

export class RowReader {
  readonly rejection: RowRejection | null = null;
  private readonly record: Record<string, unknown>;

  constructor(readonly rowNumber: number, data: unknown) {
    if (data && typeof data === 'object' && !Array.isArray(data)) this.record = data as Record<string, unknown>;
    else {
      this.record = {};
      this.reject('_', 'Each row must be a JSON object');
    }
  }

  get ok() {
    return this.rejection === null;
  }

  reject(field: string, message: string): Invalid {
    if (!this.rejection) (this as { rejection: RowRejection | null }).rejection = { rowNumber: this.rowNumber, field, message };
    return INVALID;
  }

  private raw(field: string): unknown {
    const value = this.record[field];
    return value === null || value === '' ? undefined : value;
  }

  /** A non-empty trimmed string (numbers are taken as their text). */
  string(field: string, options: { required: true; max?: number }): string | Invalid;
  string(field: string, options?: { required?: false; max?: number }): string | undefined | Invalid;
  string(field: string, { required = false, max = 300 }: { required?: boolean; max?: number } = {}): string | undefined | Invalid {
    const value = this.raw(field);
    if (value === undefined) return required ? this.reject(field, 'Required') : undefined;
    if (typeof value !== 'string' && typeof value !== 'number') return this.reject(field, 'Must be a string');
    // A number too large for a double (1e309) arrives as Infinity: not a text anyone sent.
    if (typeof value === 'number' && !Number.isFinite(value)) return this.reject(field, 'Must be a string (a finite number is taken as its text)');
    const text = String(value).trim();
    if (!text) return required ? this.reject(field, 'Required') : undefined;
    if (text.length > max) return this.reject(field, `At most ${max} characters`);
    // PostgreSQL text cannot hold it: caught here, it rejects the row instead of failing the chunk.
    if (text.includes('\u0000')) return this.reject(field, 'Must not contain the NUL character');
    return text;
  }

  /** A number (or numeric text) of at least `min` (and at most `max`); `integer` demands a whole number. */
  number(field: string, { min = 0, max, integer = false, fallback }: { min?: number; max?: number; integer?: boolean; fallback?: number } = {}): number | undefined | Invalid {
    const value = this.raw(field);
    if (value === undefined) return fallback;
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    if (!Number.isFinite(n)) return this.reject(field, typeof value === 'number' ? 'Must be a finite number' : 'Must be a number');
    if (integer && !Number.isInteger(n)) return this.reject(field, 'Must be a whole number');
    if (n < min) return this.reject(field, `Must be ${min} or more`);
    if (max !== undefined && n > max) return this.reject(field, `At most ${max}`);
    if (integer && n > MAX_INT) return this.reject(field, `At most ${MAX_INT}`);
    return n;
  }
}

/** A field of a row as loose text (trimmed, lower case; '' when absent), for comparing natural keys. */
export function fieldText(row: unknown, field: string): string {
  const value = row && typeof row === 'object' ? (row as Record<string, unknown>)[field] : undefined;
  return value === undefined || value === null ? '' : String(value).trim().toLowerCase();
}

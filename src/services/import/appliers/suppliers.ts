import { z } from 'zod';
import type { ChunkApplier } from '../kinds.js';
import { orgId } from '../../tenant.js';
import { optionalNumber, optionalText, parseRows, requiredText } from './references.js';

/**
 * A supplier row. `code` is the supplier's unique identifier in the organization (the upsert key).
 * Absent optional fields take their default when the supplier is created (name: the code) and keep
 * their stored value when it is updated (empty or null counts as absent).
 */
export const supplierRow = z.object(
  {
    code: requiredText(100),
    name: optionalText(300),
    email: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), optionalText(320).pipe(z.email('Must be an email address').optional())),
    phone: optionalText(50),
    leadTimeDays: optionalNumber({ min: 0, max: 3650, integer: true }),
  },
  'Each row must be a JSON object',
);

/** Upserts suppliers by code, in row order (a later row with the same code wins). */
export const applySupplierRows: ChunkApplier = async (tx, ctx, rows) => {
  const organizationId = orgId(ctx);
  const { valid, rejections } = parseRows(supplierRow, rows);
  for (const { data } of valid) {
    await tx.supplier.upsert({
      where: { organizationId_code: { organizationId, code: data.code } },
      create: { organizationId, code: data.code, name: data.name ?? data.code, email: data.email ?? null, phone: data.phone ?? null, leadTimeDays: data.leadTimeDays ?? null },
      // `code` keeps the update non-empty: Prisma then runs one INSERT ... ON CONFLICT, which is safe when
      // two imports create the same supplier at once (its read-then-write fallback is not).
      update: { code: data.code, name: data.name, email: data.email, phone: data.phone, leadTimeDays: data.leadTimeDays },
      select: { id: true },
    });
  }
  return rejections;
};

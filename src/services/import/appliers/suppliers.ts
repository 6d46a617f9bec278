import { supplierRow } from '../../../contracts/import/supplier-row.js';
import type { ChunkApplier, ImportRow } from '../jobs/kinds.js';
import { orgId } from '../../tenant.js';
import { parseRows } from './parse-rows.js';

/** Upserts suppliers by code, in row order (a later row with the same code wins). */
export const applySupplierRows: ChunkApplier = async (ctx, rows) => {
  const tx = ctx.prisma;
  const organizationId = orgId(ctx);
  const { valid, rejections } = checkSupplierRows(rows);
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

/** The check of supplier rows: their contract (nothing else refuses a supplier row). */
export const checkSupplierRows = (rows: ImportRow[]) => parseRows(supplierRow, rows);

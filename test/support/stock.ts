import { type App, systemContext } from '../../src/context.js';
import { inTransaction } from '../../src/db/transactions.js';
import { findOrCreateStockLine, applyStockChange } from '../../src/services/inventory/ledger/stock-ledger.js';
import type { Bucket } from '../../src/services/inventory/stock-lines/quantities.js';

/**
 * Test set-up only: puts stock on a line through the same guarded change function the service uses
 * (with a ledger row), so tests of reading paths need not depend on the receiving endpoints.
 */
export async function addStock(
  app: App,
  organizationId: string,
  line: { productMasterId: string; locationId: string; lotCode?: string; expiryDate?: string; recalled?: boolean; binCode?: string },
  deltas: Partial<Record<Bucket, number>>,
  transactionType = 'RECEIPT',
) {
  const org = await app.prisma.organization.findUniqueOrThrow({ where: { id: organizationId } });
  const ctx = systemContext(app, { organization: org, actor: { type: 'apiKey', id: 'test-setup', scopes: ['*'] }, origin: '127.0.0.1' });
  return inTransaction(ctx, async (ctx) => {
    const tx = ctx.prisma;
    const lot = line.lotCode
      ? await tx.lot.upsert({
          where: { organizationId_productMasterId_code: { organizationId, productMasterId: line.productMasterId, code: line.lotCode } },
          create: { organizationId, productMasterId: line.productMasterId, code: line.lotCode, expiryDate: line.expiryDate ? new Date(line.expiryDate) : null, recalled: line.recalled ?? false },
          update: {},
        })
      : null;
    const bin = line.binCode
      ? await tx.bin.upsert({
          where: { locationId_code: { locationId: line.locationId, code: line.binCode } },
          create: { organizationId, locationId: line.locationId, code: line.binCode },
          update: {},
        })
      : null;
    const stockLine = await findOrCreateStockLine(ctx, { productMasterId: line.productMasterId, locationId: line.locationId, lotId: lot?.id, binId: bin?.id });
    return (await applyStockChange(ctx, { stockLineId: stockLine.id, deltas, transactionType })).line;
  });
}

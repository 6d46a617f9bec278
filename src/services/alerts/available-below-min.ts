import type { AlertRule } from '../../generated/prisma/client.js';
import type { AlertCandidate, AlertKey } from './alert-writes.js';
import type { MeasuredStock } from './measure-stock-keys.js';
import { ruleCovers } from './rule-scope.js';

/**
 * AVAILABLE_BELOW_MIN for the measured keys of a batch: each enabled rule of the key's organization that covers it
 * either raises (available < the inventory level's minimum) or resolves (otherwise, also when the key has no level
 * or a minimum of 0).
 */
export function availableBelowMin(measured: MeasuredStock[], rules: AlertRule[]): { raise: AlertCandidate[]; clear: AlertKey[] } {
  const raise: AlertCandidate[] = [];
  const clear: AlertKey[] = [];
  for (const row of measured) {
    const dedupKey = `${row.productId}:${row.locationId}`;
    const below = row.minQuantity !== null && row.minQuantity > 0 && row.available < row.minQuantity;
    for (const rule of rules) {
      if (rule.organizationId !== row.organizationId || !ruleCovers(rule, row)) continue;
      if (!below) {
        clear.push({ ruleId: rule.id, dedupKey });
        continue;
      }
      raise.push({
        organizationId: row.organizationId,
        ruleId: rule.id,
        kind: 'AVAILABLE_BELOW_MIN',
        severity: rule.severity,
        dedupKey,
        productId: row.productId,
        locationId: row.locationId,
        subjectType: 'STOCK_LINE',
        subjectId: row.stockLineId,
        message: `Available ${row.available} of ${row.sku} at ${row.locationCode} is below the minimum ${row.minQuantity}`,
        details: { available: row.available, minQuantity: row.minQuantity },
      });
    }
  }
  return { raise, clear };
}

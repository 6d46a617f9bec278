import type { DbContext } from '../../context.js';
import type { InTransaction } from '../../db/transactions.js';
import type { AlertRule } from '../../generated/prisma/client.js';
import { atpSeverity, channelAtp, type AllocationModeName } from '../inventory/channel-atp/channel-atp-rule.js';
import type { AlertCandidate, AlertKey } from './alert-writes.js';
import type { MeasuredStock } from './measure-stock-keys.js';
import { ruleCovers } from './rule-scope.js';

interface ChannelPolicyRow {
  organizationId: string;
  channelId: string;
  channelName: string;
  locationId: string | null;
  mode: AllocationModeName | null;
  sharePct: number | null;
  fixedQuantity: number | null;
  lowAtpThreshold: number | null;
}

/**
 * CHANNEL_ATP_CRITICAL for the measured keys of a batch, by the channel ATP rule (channel-atp-rule.ts): a channel's
 * ATP at a location is CRITICAL when it is 0 or less (its policy's share or fixed quantity of available; every
 * channel without a policy there may promise all of available). One alert per product and location listing the
 * critical channels; resolved when a later stock change finds none. An organization without channels has no ATP.
 * The channels and their policies at the batch's locations are read with one query.
 */
export async function channelAtpCritical(ctx: InTransaction<DbContext>, measured: MeasuredStock[], rules: AlertRule[]): Promise<{ raise: AlertCandidate[]; clear: AlertKey[] }> {
  const raise: AlertCandidate[] = [];
  const clear: AlertKey[] = [];
  const covered = measured.filter((row) => rules.some((rule) => rule.organizationId === row.organizationId && ruleCovers(rule, row)));
  if (!covered.length) return { raise, clear };
  const organizations = [...new Set(covered.map((row) => row.organizationId))];
  const locations = [...new Set(covered.map((row) => row.locationId))];
  const rows = await ctx.prisma.$queryRaw<ChannelPolicyRow[]>`
    SELECT c."organizationId", c.id AS "channelId", c.name AS "channelName", p."locationId", p.mode::text AS mode, p."sharePct", p."fixedQuantity", p."lowAtpThreshold"
    FROM channels c
    LEFT JOIN channel_allocation_policies p ON p."channelId" = c.id AND p."organizationId" = c."organizationId" AND p."locationId" = ANY(${locations}::text[])
    WHERE c."organizationId" = ANY(${organizations}::text[])
    ORDER BY c.name, c.id`;
  const channels = new Map<string, { channelId: string; channelName: string; policies: Map<string, ChannelPolicyRow> }[]>();
  for (const row of rows) {
    const list = channels.get(row.organizationId) ?? [];
    if (!channels.has(row.organizationId)) channels.set(row.organizationId, list);
    let channel = list.find((c) => c.channelId === row.channelId);
    if (!channel) list.push((channel = { channelId: row.channelId, channelName: row.channelName, policies: new Map() }));
    if (row.locationId && row.mode) channel.policies.set(row.locationId, row);
  }
  for (const row of covered) {
    const dedupKey = `${row.productId}:${row.locationId}`;
    const critical = (channels.get(row.organizationId) ?? []).flatMap((channel) => {
      const policy = channel.policies.get(row.locationId);
      const terms = policy ? { mode: policy.mode!, sharePct: policy.sharePct, fixedQuantity: policy.fixedQuantity, lowAtpThreshold: policy.lowAtpThreshold ?? 0 } : null;
      const atp = channelAtp(row.available, terms);
      return atpSeverity(atp, terms?.lowAtpThreshold ?? 0) === 'CRITICAL' ? [{ channelId: channel.channelId, channelName: channel.channelName, atp, policy: Boolean(policy) }] : [];
    });
    for (const rule of rules) {
      if (rule.organizationId !== row.organizationId || !ruleCovers(rule, row)) continue;
      if (!critical.length) {
        clear.push({ ruleId: rule.id, dedupKey });
        continue;
      }
      raise.push({
        organizationId: row.organizationId,
        ruleId: rule.id,
        kind: 'CHANNEL_ATP_CRITICAL',
        severity: rule.severity,
        dedupKey,
        productId: row.productId,
        locationId: row.locationId,
        subjectType: 'STOCK_LINE',
        subjectId: row.stockLineId,
        message: `${row.sku} at ${row.locationCode} has nothing to promise on ${critical.map((c) => c.channelName).join(', ')} (available ${row.available})`.slice(0, 1000),
        details: { available: row.available, channels: critical },
      });
    }
  }
  return { raise, clear };
}

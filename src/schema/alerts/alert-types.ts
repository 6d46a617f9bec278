import type { Alert, AlertRule } from '../../generated/prisma/client.js';
import { builder } from '../builder.js';
import { readScopesOf } from '../link-scopes.js';
import { LocationType } from '../master-data/location.js';
import { NodeRef } from '../node/node-interface.js';
import { ProductType } from '../products/product.js';
import { linked } from '../record-loaders.js';

export const AlertKindEnum = builder.enumType('AlertKind', {
  description: 'What an alert rule watches (docs/alerts.md).',
  values: {
    AVAILABLE_BELOW_MIN: { description: "A product's available units at a location below its inventory level's minimum (on each stock change)." },
    IMPORT_FAILED: { description: 'An import job failed (on its import.failed event).' },
    STOCK_REQUESTS_WAITING: { description: 'A stock request SUBMITTED longer than threshold hours without a decision (the sweep; resolved when it moves).' },
    LOTS_EXPIRING: { description: 'A lot with units on hand expires within threshold days (the sweep; resolved when those units are gone).' },
    CHANNEL_ATP_CRITICAL: { description: "A product's channel ATP at a location is 0 or less on one or more channels (on each stock change; resolved when none is)." },
    CYCLE_COUNT_OVERDUE: { description: 'Products at a location whose next cycle count is threshold days or more past (or never counted): one alert per location (the sweep).' },
    RECOMMENDATIONS_WAITING: { description: 'PENDING transfer recommendations into a location older than threshold hours: one alert per location (the sweep).' },
    FORECAST_ACCURACY_DEGRADED: { description: "A scenario's stored forecast off by more than threshold percent WAPE against recorded actuals (when a run completes)." },
  } as const,
});

export const AlertSeverityEnum = builder.enumType('AlertSeverity', {
  description: "How urgent an alert is: its rule's severity when it was raised.",
  values: { INFO: { description: 'For information.' }, WARNING: { description: 'Needs attention.' }, CRITICAL: { description: 'Needs attention now.' } } as const,
});

export const AlertStatusEnum = builder.enumType('AlertStatus', {
  description: 'Where an alert is: OPEN → ACKNOWLEDGED → RESOLVED (by a user, or by SYSTEM when the condition cleared; OPEN may be resolved directly).',
  values: {
    OPEN: { description: 'Raised, nobody has acknowledged it yet.' },
    ACKNOWLEDGED: { description: 'Someone has seen it; the condition may still hold.' },
    RESOLVED: { description: 'Closed: by a user, or by SYSTEM when the condition cleared. If it returns, a new alert is raised.' },
  } as const,
});

export const AlertRuleRef = builder.objectRef<AlertRule>('AlertRule').implement({
  interfaces: [NodeRef],
  description: "What the organization wants to be alerted about: a kind, its threshold, an optional scope and the alerts' severity.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    kind: t.field({ type: AlertKindEnum, description: 'What it watches.', resolve: (rule) => rule.kind }),
    threshold: t.exposeInt('threshold', { nullable: true, description: 'Hours for STOCK_REQUESTS_WAITING, days for LOTS_EXPIRING; null for the kinds without one.' }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'Only this location (null: every location).' }),
    productId: t.exposeID('productId', { nullable: true, description: 'Only this product (null: every product).' }),
    categoryId: t.exposeID('categoryId', { nullable: true, description: 'Only products of this category (null: every category).' }),
    severity: t.field({ type: AlertSeverityEnum, description: 'The severity of the alerts it raises.', resolve: (rule) => rule.severity }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether it raises and resolves alerts.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it last changed.' }),
  }),
});

export const AlertRef = builder.objectRef<Alert>('Alert').implement({
  interfaces: [NodeRef],
  description: "A rule's condition found true for one key (a product at a location, an import job, a stock request, a lot at a location), with its cause and measure.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Identifier.' }),
    ruleId: t.exposeID('ruleId', { description: 'The rule that raised it.' }),
    rule: t.field({ type: AlertRuleRef, nullable: true, description: 'The rule that raised it.', resolve: (alert, _args, ctx) => linked(ctx, 'alertRule', alert.ruleId) }),
    kind: t.field({ type: AlertKindEnum, description: 'What kind of condition.', resolve: (alert) => alert.kind }),
    severity: t.field({ type: AlertSeverityEnum, description: "Its rule's severity when it was raised.", resolve: (alert) => alert.severity }),
    status: t.field({ type: AlertStatusEnum, description: 'Where it is.', resolve: (alert) => alert.status }),
    productId: t.exposeID('productId', { nullable: true, description: 'The product it concerns (null: none, as for an import).' }),
    product: t.field({ type: ProductType, nullable: true, authScopes: readScopesOf('Product'), description: 'The product it concerns.', resolve: (alert, _args, ctx) => linked(ctx, 'product', alert.productId) }),
    locationId: t.exposeID('locationId', { nullable: true, description: 'The location it concerns (null: none).' }),
    location: t.field({ type: LocationType, nullable: true, authScopes: readScopesOf('Location'), description: 'The location it concerns.', resolve: (alert, _args, ctx) => linked(ctx, 'location', alert.locationId) }),
    subjectType: t.exposeString('subjectType', { description: 'What caused it: STOCK_LINE, IMPORT_JOB, STOCK_REQUEST, LOT, TRANSFER_RECOMMENDATION (the oldest waiting), LOCATION (its overdue counts) or FORECAST_RUN (the run measured).' }),
    subjectId: t.exposeID('subjectId', { description: 'The id of that record (the latest cause when seen again).' }),
    message: t.exposeString('message', { description: 'What was found, in words.' }),
    details: t.field({ type: 'JSON', description: 'The measure against the threshold (for example {available, minQuantity}).', resolve: (alert) => alert.details }),
    firstSeenAt: t.expose('firstSeenAt', { type: 'DateTime', description: 'When it was raised.' }),
    lastSeenAt: t.expose('lastSeenAt', { type: 'DateTime', description: 'When the condition was last found true.' }),
    occurrences: t.exposeInt('occurrences', { description: 'How many different measures (details) found the condition true while it was open (1 when raised); the same measure found again only moves lastSeenAt.' }),
    acknowledgedAt: t.expose('acknowledgedAt', { type: 'DateTime', nullable: true, description: 'When it was acknowledged.' }),
    acknowledgedByType: t.exposeString('acknowledgedByType', { nullable: true, description: 'USER or API_KEY.' }),
    acknowledgedBy: t.exposeString('acknowledgedBy', { nullable: true, description: 'The user or API key that acknowledged it.' }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true, description: 'When it was resolved.' }),
    resolvedByType: t.exposeString('resolvedByType', { nullable: true, description: 'SYSTEM (the condition cleared), USER or API_KEY.' }),
    resolvedBy: t.exposeString('resolvedBy', { nullable: true, description: 'The user or API key that resolved it (null when SYSTEM did).' }),
    resolutionNote: t.exposeString('resolutionNote', { nullable: true, description: "The resolver's note." }),
  }),
});

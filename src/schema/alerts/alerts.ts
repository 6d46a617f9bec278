import { alertRuleCreate, alertRuleRef, alertRuleUpdate, MAX_RULES } from '../../contracts/alerts/alert-rules.js';
import { ALERTS_DEFAULT_LIMIT, ALERTS_MAX_LIMIT, alertAcknowledge, alertFilter, alertListQuery, alertResolve } from '../../contracts/alerts/alerts.js';
import { acknowledgeAlert, resolveAlert } from '../../services/alerts/alert-actions.js';
import { getAlert, listAlerts } from '../../services/alerts/alert-queries.js';
import { createAlertRule, deleteAlertRule, getAlertRule, listAlertRules, updateAlertRule } from '../../services/alerts/alert-rules.js';
import { builder } from '../builder.js';
import { contractArgs, contractInput, parseInput } from '../contract-input.js';
import { positionCursors, windowConnection } from '../window-connection.js';
import { AlertKindEnum, AlertRef, AlertRuleRef, AlertSeverityEnum, AlertStatusEnum } from './alert-types.js';

// Whoever is shown alerts (reports.read) may also acknowledge and resolve them (the actor is recorded); rules
// decide what the whole organization is alerted about, so changing them is an administrator's (docs/alerts.md).
const canRead = { permission: 'reports.read' } as const;
const canWrite = { permission: 'admin.write' } as const;

type Page = Awaited<ReturnType<typeof listAlerts>>;

const PageRef = builder.objectRef<Page>('AlertPage').implement({
  description: 'One page of alerts, newest first.',
  fields: (t) => ({
    alerts: t.field({ type: [AlertRef], description: 'Alerts on this page.', resolve: (p) => p.alerts }),
    total: t.exposeInt('total', { description: 'Alerts matching the filters in all pages.' }),
    limit: t.exposeInt('limit', { description: 'Page size.' }),
    offset: t.exposeInt('offset', { description: 'Alerts skipped before this page.' }),
  }),
});

const enums = { status: AlertStatusEnum, kind: AlertKindEnum, severity: AlertSeverityEnum, locationId: 'ID', productId: 'ID', since: 'DateTime' } as const;
const CreateInput = contractInput('AlertRuleCreateInput', alertRuleCreate, { description: 'A new alert rule.', types: { kind: AlertKindEnum, severity: AlertSeverityEnum, locationId: 'ID', productId: 'ID', categoryId: 'ID' } });
const UpdateInput = contractInput('AlertRuleUpdateInput', alertRuleUpdate, {
  description: 'The rule and its changes; absent fields stay.',
  types: { id: 'ID', severity: AlertSeverityEnum, locationId: 'ID', productId: 'ID', categoryId: 'ID' },
});
const RuleRefInput = contractInput('AlertRuleRefInput', alertRuleRef, { description: 'The rule.', types: { id: 'ID' } });
const AcknowledgeInput = contractInput('AlertAcknowledgeInput', alertAcknowledge, { description: 'The alert to acknowledge.', types: { id: 'ID' } });
const ResolveInput = contractInput('AlertResolveInput', alertResolve, { description: 'The alert to resolve and an optional note.', types: { id: 'ID' } });

builder.queryFields((t) => ({
  alerts: t.connection(
    {
      type: AlertRef,
      description: "The organization's alerts with filters, newest first, as a Relay connection (NOT_FOUND for a filter location or product that is not the organization's). Needs reports.read.",
      authScopes: canRead,
      extensions: positionCursors(ALERTS_MAX_LIMIT),
      args: contractArgs(t, alertFilter, { types: enums }),
      resolve: (_parent, args, ctx) =>
        windowConnection(args, ALERTS_DEFAULT_LIMIT, (window) => listAlerts(ctx, parseInput(alertFilter, pick(args)), window).then((page) => ({ items: page.alerts, total: page.total }))),
    },
    {
      name: 'AlertConnection',
      description: 'A page of alerts with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Alerts matching the filters, in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  alertsPage: t.field({
    type: PageRef,
    description: "REST adapter's shape (GET /api/alerts): a page of alerts by limit and offset, newest first. Needs reports.read.",
    deprecationReason: "The REST adapter's page shape (GET /api/alerts); GraphQL clients use the connection `alerts`.",
    authScopes: canRead,
    args: contractArgs(t, alertListQuery, { types: enums }),
    resolve: (_parent, args, ctx) => {
      const { limit, offset, ...filter } = parseInput(alertListQuery, { ...args, ...pick(args) });
      return listAlerts(ctx, filter, { limit, offset });
    },
  }),
  alert: t.field({
    type: AlertRef,
    description: "One alert by id (null when it is unknown or not the organization's). Needs reports.read.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'Alert id.' }) },
    resolve: (_parent, args, ctx) => getAlert(ctx, String(args.id)),
  }),
  alertRules: t.connection(
    {
      type: AlertRuleRef,
      description: `The organization's alert rules (at most ${MAX_RULES}), newest first, as a Relay connection. Needs reports.read.`,
      authScopes: canRead,
      extensions: positionCursors(ALERTS_MAX_LIMIT),
      resolve: (_parent, args, ctx) => windowConnection(args, ALERTS_DEFAULT_LIMIT, (window) => listAlertRules(ctx, window)),
    },
    {
      name: 'AlertRuleConnection',
      description: 'A page of alert rules with the cursors to fetch the next or previous page.',
      fields: (c) => ({ totalCount: c.int({ description: 'Rules in all pages.', resolve: (page) => page.totalCount }) }),
    },
  ),
  allAlertRules: t.field({
    type: [AlertRuleRef],
    description: `REST adapter's list (GET /api/alerts/rules): every rule of the organization (at most ${MAX_RULES}), newest first. Needs reports.read.`,
    deprecationReason: "The REST adapter's list (GET /api/alerts/rules); GraphQL clients use the connection `alertRules`.",
    authScopes: canRead,
    resolve: async (_parent, _args, ctx) => (await listAlertRules(ctx)).items,
  }),
  alertRule: t.field({
    type: AlertRuleRef,
    description: "One alert rule by id (null when it is unknown or not the organization's). Needs reports.read.",
    orNullWhenAbsent: true,
    authScopes: canRead,
    args: { id: t.arg.id({ required: true, description: 'Rule id.' }) },
    resolve: (_parent, args, ctx) => getAlertRule(ctx, String(args.id)),
  }),
}));

/** The filter arguments (paging left out), `since` back to the text the contract reads (GraphQL made it a Date). */
function pick(args: Record<string, unknown>) {
  const { status, kind, severity, locationId, productId, since } = args;
  return { status, kind, severity, locationId, productId, since: since instanceof Date ? since.toISOString() : since };
}

builder.mutationFields((t) => ({
  createAlertRule: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: AlertRuleRef,
    description:
      'Creates an alert rule. A threshold missing, out of bounds or given to a kind without one, or a scope the kind ignores: ValidationError; a scope id that is not ' +
      `the organization's: NotFoundError; the organization has ${MAX_RULES} rules already: ConflictError. Needs admin.write.`,
    authScopes: canWrite,
    args: { input: t.arg({ type: CreateInput, required: true, description: 'The rule.' }) },
    resolve: (_parent, args, ctx) => createAlertRule(ctx, parseInput(alertRuleCreate, args.input)),
  }),
  updateAlertRule: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: AlertRuleRef,
    description: 'Changes threshold, scope, severity or enabled (the kind stays); checked as on creation. Open alerts keep their severity. Needs admin.write.',
    authScopes: canWrite,
    args: { input: t.arg({ type: UpdateInput, required: true, description: 'The rule and its changes.' }) },
    resolve: (_parent, args, ctx) => {
      const { id, ...changes } = parseInput(alertRuleUpdate, args.input);
      return updateAlertRule(ctx, id, changes);
    },
  }),
  deleteAlertRule: t.field({
    refusals: ['ValidationError', 'NotFoundError'],
    type: AlertRuleRef,
    description: 'Deletes a rule with its alerts; answers it as it was. Needs admin.write.',
    authScopes: canWrite,
    args: { input: t.arg({ type: RuleRefInput, required: true, description: 'The rule.' }) },
    resolve: (_parent, args, ctx) => deleteAlertRule(ctx, parseInput(alertRuleRef, args.input).id),
  }),
  acknowledgeAlert: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: AlertRef,
    description: 'OPEN → ACKNOWLEDGED, recording who. Any other state: ConflictError INVALID_STATE, nothing changed. Needs reports.read (whoever is shown an alert may acknowledge it).',
    authScopes: canRead,
    args: { input: t.arg({ type: AcknowledgeInput, required: true, description: 'The alert.' }) },
    resolve: (_parent, args, ctx) => acknowledgeAlert(ctx, parseInput(alertAcknowledge, args.input).id),
  }),
  resolveAlert: t.field({
    refusals: ['ValidationError', 'NotFoundError', 'ConflictError'],
    type: AlertRef,
    description: 'OPEN or ACKNOWLEDGED → RESOLVED, recording who and the optional note. RESOLVED already: ConflictError INVALID_STATE. Needs reports.read.',
    authScopes: canRead,
    args: { input: t.arg({ type: ResolveInput, required: true, description: 'The alert and an optional note.' }) },
    resolve: (_parent, args, ctx) => {
      const input = parseInput(alertResolve, args.input);
      return resolveAlert(ctx, input.id, input.note);
    },
  }),
}));

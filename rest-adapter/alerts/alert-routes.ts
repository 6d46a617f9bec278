import { alertRuleChanges, alertRuleCreate } from '../../src/contracts/alerts/alert-rules.js';
import { alertListQuery, alertNoBody, alertResolveBody } from '../../src/contracts/alerts/alerts.js';
import { jsonContent, pathParam, responses } from '../openapi-common.js';
import { defineRoutes } from '../route.js';
import { alert, alertList, alertRule, alertRuleList } from './alert-responses.js';

const RULE = 'id kind threshold locationId productId categoryId severity enabled createdAt updatedAt';
const ALERT =
  'id ruleId kind severity status productId locationId subjectType subjectId message details firstSeenAt lastSeenAt occurrences ' +
  'acknowledgedAt acknowledgedByType acknowledgedBy resolvedAt resolvedByType resolvedBy resolutionNote';

const tags = ['Alerts'];
const alertParam = pathParam('id', 'Alert id');
const ruleParam = pathParam('id', 'Alert rule id');
const READ = 'Needs reports.read (any role, or an API key with reports:read or *).';
const WRITE = 'Needs admin.write (an ADMIN user, or an API key with admin:write or *).';
const ruleBody = (description: string) => ({ description, ...jsonContent(alertRule) });
const alertBody = (description: string) => ({ description, ...jsonContent(alert) });

export const alertRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/api/alerts/rules',
    operation: `query { allAlertRules { ${RULE} } }`,
    result: (data) => ({ data: data.allAlertRules }),
    doc: {
      operationId: 'listAlertRules',
      summary: 'List alert rules',
      description: `Every rule of the organization (at most 200), newest first. ${READ}`,
      tags,
      responses: responses({ 200: { description: 'The rules', ...jsonContent(alertRuleList) } }, [401, 403]),
    },
  },
  {
    method: 'POST',
    path: '/api/alerts/rules',
    operation: `mutation ($input: AlertRuleCreateInput!) { createAlertRule(input: $input) { ${RULE} } }`,
    input: { body: alertRuleCreate },
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createAlertRule,
    status: 201,
    doc: {
      operationId: 'createAlertRule',
      summary: 'Create an alert rule',
      description:
        'Body {kind, threshold?, locationId?, productId?, categoryId?, severity?, enabled?}. threshold: hours for STOCK_REQUESTS_WAITING (1-720), days for LOTS_EXPIRING ' +
        '(1-365), none for AVAILABLE_BELOW_MIN and IMPORT_FAILED; a scope the kind ignores: 400 naming the field. A scope id that is not the organization\'s: 404. ' +
        `The 201st rule: 409 INVALID_STATE. ${WRITE}`,
      tags,
      responses: responses({ 201: ruleBody('The rule') }, [400, 401, 403, 404, 409]),
    },
  },
  {
    method: 'GET',
    path: '/api/alerts/rules/:id',
    operation: `query ($id: ID!) { alertRule(id: $id) { ${RULE} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.alertRule,
    doc: { operationId: 'getAlertRule', summary: 'Get an alert rule', description: READ, tags, parameters: [ruleParam], responses: responses({ 200: ruleBody('The rule') }, [401, 403, 404]) },
  },
  {
    method: 'PATCH',
    path: '/api/alerts/rules/:id',
    operation: `mutation ($input: AlertRuleUpdateInput!) { updateAlertRule(input: $input) { ${RULE} } }`,
    input: { body: alertRuleChanges },
    variables: ({ params, body }) => ({ input: { ...(body as object), id: params.id } }),
    result: (data) => data.updateAlertRule,
    doc: {
      operationId: 'updateAlertRule',
      summary: 'Change an alert rule',
      description: `Body: any of {threshold, locationId, productId, categoryId, severity, enabled} (null clears threshold or a scope); the kind stays. Checked as on creation. ${WRITE}`,
      tags,
      parameters: [ruleParam],
      responses: responses({ 200: ruleBody('The changed rule') }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'DELETE',
    path: '/api/alerts/rules/:id',
    operation: `mutation ($input: AlertRuleRefInput!) { deleteAlertRule(input: $input) { ${RULE} } }`,
    variables: ({ params }) => ({ input: { id: params.id } }),
    result: (data) => data.deleteAlertRule,
    doc: {
      operationId: 'deleteAlertRule',
      summary: 'Delete an alert rule',
      description: `Removes the rule with its alerts and answers it as it was. ${WRITE}`,
      tags,
      parameters: [ruleParam],
      responses: responses({ 200: ruleBody('The deleted rule') }, [401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/alerts',
    operation: `query ($status: AlertStatus, $kind: AlertKind, $severity: AlertSeverity, $locationId: ID, $productId: ID, $since: DateTime, $limit: Int, $offset: Int) {
      alertsPage(status: $status, kind: $kind, severity: $severity, locationId: $locationId, productId: $productId, since: $since, limit: $limit, offset: $offset) { alerts { ${ALERT} } total limit offset }
    }`,
    input: { query: alertListQuery },
    variables: ({ query }) => query,
    result: ({ alertsPage: page }) => ({ data: page.alerts, total: page.total, limit: page.limit, offset: page.offset }),
    doc: {
      operationId: 'listAlerts',
      summary: 'List alerts',
      description:
        'Newest first; filters status (OPEN, ACKNOWLEDGED, RESOLVED), kind, severity (any case), locationId, productId (404 when not the organization\'s), since ' +
        `(last seen at or after this date-time); limit/offset paging (default 50, at most 100). ${READ}`,
      tags,
      responses: responses({ 200: { description: 'A page of alerts', ...jsonContent(alertList) } }, [400, 401, 403, 404]),
    },
  },
  {
    method: 'GET',
    path: '/api/alerts/:id',
    operation: `query ($id: ID!) { alert(id: $id) { ${ALERT} } }`,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.alert,
    doc: { operationId: 'getAlert', summary: 'Get an alert', description: READ, tags, parameters: [alertParam], responses: responses({ 200: alertBody('The alert') }, [401, 403, 404]) },
  },
  {
    method: 'POST',
    path: '/api/alerts/:id/acknowledge',
    operation: `mutation ($input: AlertAcknowledgeInput!) { acknowledgeAlert(input: $input) { ${ALERT} } }`,
    input: { body: alertNoBody },
    variables: ({ params }) => ({ input: { id: params.id } }),
    result: (data) => data.acknowledgeAlert,
    doc: {
      operationId: 'acknowledgeAlert',
      summary: 'Acknowledge an alert',
      description: `Body: none or {}. OPEN → ACKNOWLEDGED, recording who; any other state: 409 INVALID_STATE. ${READ} Whoever is shown an alert may acknowledge it.`,
      tags,
      parameters: [alertParam],
      responses: responses({ 200: alertBody('The acknowledged alert') }, [400, 401, 403, 404, 409]),
    },
  },
  {
    method: 'POST',
    path: '/api/alerts/:id/resolve',
    operation: `mutation ($input: AlertResolveInput!) { resolveAlert(input: $input) { ${ALERT} } }`,
    input: { body: alertResolveBody },
    variables: ({ params, body }) => ({ input: { ...(body as object), id: params.id } }),
    result: (data) => data.resolveAlert,
    doc: {
      operationId: 'resolveAlert',
      summary: 'Resolve an alert',
      description: `Body: none, or {note?} (up to 1000 characters). OPEN or ACKNOWLEDGED → RESOLVED, recording who; RESOLVED already: 409 INVALID_STATE. ${READ}`,
      tags,
      parameters: [alertParam],
      responses: responses({ 200: alertBody('The resolved alert') }, [400, 401, 403, 404, 409]),
    },
  },
]);

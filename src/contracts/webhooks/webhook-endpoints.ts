import { z } from 'zod';
import { EVENT_TYPES } from '../../kernel/event-types.js';
import { mustBe } from '../parse.js';
import { optionalNote } from '../text-fields.js';

/** `*` in eventTypes: every type, those added later too. */
export const ALL_EVENT_TYPES = '*';
export const MAX_URL_LENGTH = 2000;

const KNOWN = [...EVENT_TYPES, ALL_EVENT_TYPES] as readonly string[];

const url = z
  .string({ error: mustBe('text') })
  .trim()
  .min(1, 'Required')
  .max(MAX_URL_LENGTH, `At most ${MAX_URL_LENGTH} characters`)
  .refine((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), 'Must be an absolute https URL')
  .meta({
    description:
      `Where events are POSTed, up to ${MAX_URL_LENGTH} characters: https, on a host that resolves to public addresses only (400 otherwise; ` +
      'the operator may exempt hosts with WEBHOOK_ALLOW_HOSTS).',
  });

const eventTypes = z
  .array(z.string({ error: mustBe('text') }).max(100, 'At most 100 characters'), { error: mustBe('a list of event types') })
  .min(1, 'At least one event type')
  .max(KNOWN.length, `At most ${KNOWN.length} event types`)
  .refine((types) => types.every((t) => KNOWN.includes(t)), `Unknown event type; known: ${KNOWN.join(', ')}`)
  .transform((types) => (types.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : [...new Set(types)]))
  .meta({ description: `Event types to receive (${EVENT_TYPES.join(', ')}), or ["${ALL_EVENT_TYPES}"] for every type, those added later too.` });

const description = optionalNote(500).meta({ description: 'Free text to recognise the endpoint by, up to 500 characters.' });

const id = z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters');
const endpointId = id.meta({ description: 'The endpoint (404 when it is not one of the organization).' });

/** Body of POST /api/webhooks/endpoints and input of createWebhookEndpoint. */
export const webhookEndpointCreate = z.strictObject({
  url,
  eventTypes,
  description,
  active: z.boolean({ error: mustBe('true or false') }).optional().meta({ description: 'Whether it receives events (default true).' }),
});

/** Body of PATCH /api/webhooks/endpoints/{id}. */
export const webhookEndpointChanges = z
  .strictObject({
    url: url.optional(),
    eventTypes: eventTypes.optional(),
    description,
    active: z
      .boolean({ error: mustBe('true or false') })
      .optional()
      .meta({ description: 'false pauses it (deliveries wait); true re-activates a paused or disabled endpoint and clears its failure count.' }),
  })
  .meta({ description: 'Absent fields stay as they are; description null clears it.' });

/** Input of updateWebhookEndpoint. */
export const webhookEndpointUpdate = z.strictObject({ id: endpointId, ...webhookEndpointChanges.shape });

/** Input of deleteWebhookEndpoint and rotateWebhookEndpointSecret. */
export const webhookEndpointRef = z.strictObject({ id: endpointId });

/** Body of the POST routes that take none (rotate-secret, replay): nothing, or an empty object. */
export const webhookNoBody = z.strictObject({});

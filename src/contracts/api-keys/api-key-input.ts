import { z } from 'zod';
import { invalidIpEntries } from '../../kernel/ip-allow.js';
import { MAX_YEAR } from '../../kernel/input-limits.js';
import { dateTime } from '../date-times.js';
import { mustBe } from '../parse.js';

/** Longest grace period a rotation may give the replaced secret: 7 days. */
export const MAX_GRACE_PERIOD_SECONDS = 7 * 24 * 3600;

const IPS = 'IP addresses or CIDR ranges, for example 203.0.113.7 or 10.0.0.0/8.';

const ipList = z
  .array(z.string({ error: mustBe('text') }).trim(), { error: mustBe('a list') })
  .refine((ips) => invalidIpEntries(ips).length === 0, 'Each entry must be an IP address or CIDR range');

/**
 * The contracts of API-key input. The known scopes are src/auth's (which a contract may not import), so
 * the service and the REST adapter each build them from API_KEY_SCOPES.
 */
export function apiKeyContracts(knownScopes: readonly string[]) {
  const scopes = z
    .array(z.string({ error: mustBe('text') }), { error: mustBe('a list') })
    .min(1, 'At least one scope')
    .refine((s) => s.every((x) => knownScopes.includes(x)), `Unknown scope; known scopes: ${knownScopes.join(', ')}`)
    .meta({ description: 'At least one scope, for example inventory:read, forecast:write or *.' });

  /** Field rules shared by the admin CLI and the HTTP interface. */
  const fields = {
    name: z.string({ error: mustBe('text') }).trim().min(1, 'Required').max(200, 'At most 200 characters').meta({ description: 'Name to recognise the key by, up to 200 characters.' }),
    scopes,
    allowedIps: ipList
      .nullish()
      .transform((ips) => ips ?? [])
      .meta({ description: `Where the key may be used from: ${IPS} Default (or null): any address.` }),
    // A key that has expired already would be refused on its first use: refused here instead, with the field.
    expiresAt: dateTime
      .refine((date) => date.getTime() > Date.now(), 'Must be in the future')
      .nullish()
      .meta({ type: ['string', 'null'], format: 'date-time', description: `Default: never. A date-time with a time zone, in the future (years up to ${MAX_YEAR}); a past value is a 400.` }),
  };

  return {
    fields,
    /** Body of POST /api/admin/api-keys and input of createApiKey. */
    create: z.strictObject(fields),
    /** Body of PATCH /api/admin/api-keys/{id} and input of updateApiKey. */
    update: z
      .strictObject({
        name: fields.name.optional(),
        scopes: scopes.optional().meta({ description: 'Replaces the scopes.' }),
        // null clears the restriction, like an empty list
        allowedIps: ipList
          .nullish()
          .transform((ips) => (ips === null ? [] : ips))
          .meta({ description: `Replaces the list: ${IPS} Empty or null for any address.` }),
        expiresAt: fields.expiresAt.meta({ description: `The new expiry; null for never. A date-time with a time zone, in the future (years up to ${MAX_YEAR}); a past value is a 400.` }),
      })
      .meta({ description: 'Absent fields stay as they are; null clears allowedIps or expiresAt. A revoked key cannot be changed (409).' }),
    /** Body of POST /api/admin/api-keys/{id}/rotate and input of rotateApiKey. */
    rotate: z.strictObject({
      gracePeriodSeconds: z
        .number({ error: mustBe('a whole number of seconds') })
        .int('Must be a whole number of seconds')
        .min(0, 'Must be 0 or more')
        .max(MAX_GRACE_PERIOD_SECONDS, `At most ${MAX_GRACE_PERIOD_SECONDS} seconds (7 days)`)
        .nullish()
        .meta({ description: `Seconds the replaced secret keeps working, up to ${MAX_GRACE_PERIOD_SECONDS} (7 days). 0 or absent: it stops at once.` }),
    }),
  };
}

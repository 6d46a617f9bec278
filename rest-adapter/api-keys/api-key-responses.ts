import { z } from 'zod';
import { dateTime } from '../common-responses.js';

const dateTimeOrNull = dateTime.nullable();

export const apiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe('First characters of the current secret (scm_ and 8 more), to recognise it.'),
    scopes: z.array(z.string()),
    allowedIps: z.array(z.string()).describe('Where the key may be used from; empty means anywhere.'),
    expiresAt: dateTimeOrNull.describe('When the key stops working; null for never.'),
    lastUsedAt: dateTimeOrNull.describe('Last use, to the minute.'),
    revokedAt: dateTimeOrNull.describe('When the key was revoked; null while active.'),
    previousKeyExpiresAt: dateTimeOrNull.describe('After a rotation with a grace period: when the replaced secret stops working.').optional(),
    createdByUserId: z.string().nullable().optional(),
    createdAt: dateTime,
    updatedAt: dateTime.optional(),
  })
  .meta({ id: 'ApiKey', description: 'An API key. Neither the secret nor its hash is ever part of it.' });

export const apiKeyWithSecret = z
  .intersection(apiKey, z.object({ key: z.string().describe('The secret (scm_…): send it as Authorization: Bearer <key> or X-API-Key.') }))
  .meta({ id: 'ApiKeyWithSecret', description: 'The key and its secret. The secret is shown this once: store it now.' });

export const apiKeyList = z.object({ data: z.array(apiKey) });

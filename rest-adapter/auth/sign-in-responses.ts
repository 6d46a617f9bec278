import { z } from 'zod';
import { dateTime } from '../common-responses.js';

export const session = z
  .object({
    token: z.string().describe('Send as Authorization: Bearer <token>; also set as the HttpOnly cookie scm_session.'),
    expiresAt: dateTime,
    user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).partial(),
    organizationId: z.string(),
    role: z.enum(['ADMIN', 'MANAGER', 'PLANNER', 'VIEWER']),
    organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() }).partial()),
  })
  .partial()
  .meta({ id: 'Session' });

export const signedOut = z.object({ success: z.boolean() });

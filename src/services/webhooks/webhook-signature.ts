import { createHmac, randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: whsec_ and 32 random bytes (base64url). */
export const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');

/**
 * The Webhook-Signature header (Stripe's scheme): `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * The timestamp is signed with the body, so a receiver that refuses old timestamps refuses replays.
 */
export function webhookSignature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

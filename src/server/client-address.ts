/**
 * The caller's address: the peer's, or the first X-Forwarded-For entry when TRUST_PROXY says a proxy of
 * ours sets it. HTTP requests and graphql-ws upgrades both decide IP allow-lists and limits by it.
 */
export function clientAddress(trustProxy: boolean, forwardedFor: string | null | undefined, peer: string | undefined): string {
  const forwarded = trustProxy ? forwardedFor?.split(',')[0]?.trim() : undefined;
  return forwarded || peer || '127.0.0.1';
}

import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { WebhookSettings } from '../../config.js';

/** Where a webhook may be sent: the operator's exemptions (WEBHOOK_ALLOW_PRIVATE, WEBHOOK_ALLOW_HOSTS). */
export type UrlPolicy = Pick<WebhookSettings, 'allowPrivate' | 'allowHosts'>;

/** A checked destination: connect to this address (not to a second lookup of the name, which may answer otherwise). */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to (all checked), for a connection that tries them in turn. */
  all: { address: string; family: 4 | 6 }[];
}

/** Why a URL may not be used (a sentence for the caller), or the address to connect to. */
export type UrlCheck = { ok: true; target: CheckedAddress } | { ok: false; reason: string };

// Addresses that are not the public internet: this host, private networks, link-local (the cloud metadata
// service 169.254.169.254 among them), carrier-grade NAT, documentation and benchmark ranges, multicast,
// reserved. IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are refused whole:
// they would reach IPv4 addresses this list could not see. Two lists: a BlockList matches an IPv4 address
// against its IPv4-mapped IPv6 rules too, so one list with ::ffff:0:0/96 would refuse every IPv4 address.
const BLOCKED = new BlockList();
const BLOCKED_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['2002::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) BLOCKED_V6.addSubnet(network, prefix, 'ipv6');

/** Whether an address is outside the public internet (see BLOCKED). */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) return BLOCKED_V6.check(address, 'ipv6') || BLOCKED.check(address, 'ipv6');
  return true;
}

const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Whether the operator exempted this URL's host from the https and public-address rules. */
const exempt = (url: URL, policy: UrlPolicy) => policy.allowPrivate || policy.allowHosts.includes(bareHost(url.hostname));

/**
 * Checks a webhook URL as the SSRF guard (docs/webhooks.md): https only, and every address its host
 * resolves to public, unless the operator exempted it. Run at registration and again before each
 * delivery (DNS may answer otherwise by then); the delivery connects to the address checked here.
 */
export async function checkWebhookUrl(text: string, policy: UrlPolicy): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'Must be an absolute URL' };
  }
  const allowed = exempt(url, policy);
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:')) return { ok: false, reason: 'Must be an https URL' };
  if (url.username || url.password) return { ok: false, reason: 'Must not carry a user name or password' };
  const host = bareHost(url.hostname);
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return { ok: false, reason: `The host ${host} does not resolve` };
    }
  }
  if (!addresses.length) return { ok: false, reason: `The host ${host} does not resolve` };
  if (!allowed) {
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) {
      return { ok: false, reason: `The host ${host} resolves to ${blocked.address}, which is not a public address (loopback, private, link-local, shared or reserved)` };
    }
  }
  const all = addresses.map((a) => ({ address: a.address, family: a.family === 6 ? (6 as const) : (4 as const) }));
  return { ok: true, target: { ...all[0]!, all } };
}

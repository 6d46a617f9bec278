import { BlockList, isIP } from 'node:net';

function normalize(ip: string): string {
  // IPv4 clients on a dual-stack socket show up as ::ffff:a.b.c.d
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** Is `ip` one of the addresses or CIDR ranges in `allowed`? */
export function ipAllowed(ip: string, allowed: readonly string[]): boolean {
  const address = normalize(ip);
  const family = isIP(address);
  if (!family) return false;
  const list = new BlockList();
  for (const entry of allowed) {
    const [base, bits] = entry.split('/');
    const entryFamily = isIP(base ?? '');
    if (!entryFamily) continue;
    const type = entryFamily === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(base!, type);
    else list.addSubnet(base!, Number(bits), type);
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Checks a list of addresses or CIDR ranges; returns the invalid entries. */
export function invalidIpEntries(entries: readonly string[]): string[] {
  return entries.filter((entry) => {
    const [base, bits, extra] = entry.split('/');
    const family = isIP(base ?? '');
    if (!family || extra !== undefined) return true;
    if (bits === undefined) return false;
    const n = Number(bits);
    return !/^\d+$/.test(bits) || n > (family === 4 ? 32 : 128);
  });
}

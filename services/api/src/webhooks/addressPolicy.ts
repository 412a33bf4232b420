import dns from 'node:dns';
import net from 'node:net';

/**
 * Webhook receivers must be public hosts: a merchant must not make the server call into its own
 * network. Every address a hostname resolves to is checked, at creation and again on every
 * connection (the socket connects to the very address checked, so DNS rebinding cannot slip by).
 */
const blocked = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback ::1 and the old IPv4-compatible forms
  ['64:ff9b::', 96],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** Loopback, private, link-local, carrier-grade NAT, multicast, reserved or unspecified. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = net.isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  // BlockList matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1, ::ffff:7f00:1) against the IPv4 rules.
  if (family === 6) return blocked.check(bare, 'ipv6');
  return true;
}

/** Why a webhook URL may not be used, or null when it may. */
export async function refusalOf(url: string, allowPrivate: boolean): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'The URL must be http or https.';
  if (allowPrivate) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = net.isIP(host)
      ? [host]
      : (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `The host ${host} does not resolve.`;
  }
  const inner = addresses.filter(isPrivateAddress);
  if (addresses.length === 0 || inner.length > 0) {
    return `The host ${host} resolves to a loopback, private or link-local address (${inner.join(', ') || 'none'}); webhook receivers must be public.`;
  }
  return null;
}

/** A `lookup` for sockets that refuses private addresses, so the address checked is the one used. */
export const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const inner = addresses.find((a) => isPrivateAddress(a.address));
    if (inner || addresses.length === 0) {
      const refused: NodeJS.ErrnoException = new Error(
        `refused: ${hostname} resolves to a private address (${inner?.address ?? 'none'})`,
      );
      refused.code = 'EPRIVATEADDRESS';
      return callback(refused, '', 0);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
};

// Where webhooks may go (docs/webhooks.md, "Endpoints"): https only, and never to this host's own
// network (loopback, private, link-local, carrier-grade NAT, multicast, reserved). A partner's URL
// must not become a way to make the service call its database, metadata endpoints or admin
// panels (SSRF). The name is resolved and every address checked when the endpoint is registered
// and again on each delivery; the connection then goes to the address that was checked
// (pinnedLookup), so a name that resolves differently a moment later (DNS rebinding) cannot
// redirect it. ATRIUM_WEBHOOKS_ALLOW_PRIVATE=1 lifts both rules for development and tests.
import { lookup } from 'node:dns/promises';
import net from 'node:net';

export const MAX_URL_LENGTH = 2048;

const blocked = new net.BlockList();
// IPv4 ranges: this network, private, shared (CGNAT), loopback, link-local, protocol assignments,
// documentation, 6to4 relay, benchmarking, multicast, reserved.
for (const [a, p] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(a, p, 'ipv4');
// IPv6 ranges refused as a whole. ::/96 (IPv4-compatible, deprecated; with :: and ::1) and
// 2001::/23 (IETF protocol assignments: Teredo, benchmarking, ORCHID) never hold a partner's
// receiver; forms that embed an IPv4 address a router would reach are checked as that address.
for (const [a, p] of [
  ['::', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(a, p, 'ipv6');

/** The eight 16-bit groups of an IPv6 address in any textual form (zone id dropped), or null. */
export function ipv6Groups(address: string): number[] | null {
  let a = address.replace(/%.*$/, '').toLowerCase();
  if (net.isIPv6(a) === false) return null;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') as [string, string] : [a, undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null;
}

/** The IPv4 address an IPv6 address carries for routing (mapped, translated, 6to4), if any. */
function embeddedIPv4(g: number[]): string | null {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return v4(g[6]!, g[7]!); // ::ffff:a.b.c.d, mapped
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return v4(g[6]!, g[7]!); // ::ffff:0:a.b.c.d, translated
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!); // 2002:aabb:ccdd::/48, 6to4
  return null;
}

/** Whether an address is one webhooks must not reach, in any of its IPv4 or IPv6 spellings. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address.replace(/%.*$/, ''));
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const g = ipv6Groups(address);
  if (!g) return true;
  const v4 = embeddedIPv4(g);
  if (v4 && blocked.check(v4, 'ipv4')) return true;
  return blocked.check(g.map((x) => x.toString(16)).join(':'), 'ipv6');
}

/** The URL's form: a problem as a message, or null. No network access. */
export function urlProblem(raw: unknown, allowPrivate: boolean): string | null {
  if (typeof raw !== 'string' || raw.length === 0) return "Url can't be blank";
  if (raw.length > MAX_URL_LENGTH) return `Url is too long (maximum is ${MAX_URL_LENGTH} characters)`;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'Url is not a valid URL';
  }
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) return 'Url must use https';
  if (u.username || u.password) return 'Url must not contain credentials';
  if (u.hash) return 'Url must not contain a fragment';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(host) && isBlockedAddress(host)) return 'Url must not point to a loopback, private or link-local address';
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) return 'Url must not point to a loopback, private or link-local address';
  return null;
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to: the one that was checked. */
  address: string;
  family: 4 | 6;
}

export class TargetRefused extends Error {}

/** Resolves the URL's host and checks every address; throws TargetRefused with the reason. */
export async function checkTarget(raw: string, allowPrivate: boolean): Promise<CheckedTarget> {
  const problem = urlProblem(raw, allowPrivate);
  if (problem) throw new TargetRefused(problem);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addrs: Array<{ address: string; family: number }>;
  if (net.isIP(host)) addrs = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addrs = await lookup(host, { all: true, verbatim: true });
    } catch (err) {
      throw new TargetRefused(`Url host ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
  }
  if (addrs.length === 0) throw new TargetRefused(`Url host ${host} does not resolve`);
  // Every answer must be allowed: the resolver of the moment could otherwise pick another one.
  if (!allowPrivate && addrs.some((a) => isBlockedAddress(a.address))) {
    throw new TargetRefused('Url resolves to a loopback, private or link-local address');
  }
  const first = addrs[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A `lookup` for http(s).request that answers only the checked address (no second resolution). */
export function pinnedLookup(target: CheckedTarget): net.LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
    } else callback(null, target.address, target.family);
  };
}

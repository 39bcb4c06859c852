import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// Outbound URLs (webhooks today, gateway upstreams later) must be http(s) and must not reach this machine, a
// private network or the cloud's metadata service (SSRF). Every address falls in one of three classes:
//   public     always allowed;
//   private    loopback and private ranges: refused unless ALLOW_PRIVATE_URLS=true (development and tests);
//   forbidden  link-local, cloud metadata, unspecified, multicast and reserved: refused whatever the switch says,
//              because no development setup needs them and they are what an SSRF attack is after.
// IPv6 forms that carry an IPv4 address (IPv4-mapped and -compatible, NAT64, 6to4, Teredo, ISATAP) count as the
// stricter of their own class and the class of the IPv4 inside, so `64:ff9b::a9fe:a9fe` is 169.254.169.254.
// The check runs when an endpoint is saved and again on the address each delivery actually connects to
// (send.ts), so a DNS answer that changes later cannot slip through.

export type AddressClass = "public" | "private" | "forbidden";

function blockList(v4: [string, number][], v6: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [net, bits] of v4) list.addSubnet(net, bits, "ipv4");
  for (const [net, bits] of v6) list.addSubnet(net, bits, "ipv6");
  return list;
}

const FORBIDDEN = blockList(
  [
    ["0.0.0.0", 8],
    ["169.254.0.0", 16],
    ["100.100.100.200", 32] /* Alibaba Cloud metadata */,
    ["192.0.0.0", 24],
    ["198.18.0.0", 15],
    ["224.0.0.0", 4],
    ["240.0.0.0", 4],
  ],
  [
    ["::", 128],
    ["fe80::", 10],
    ["ff00::", 8],
    ["fd00:ec2::254", 128] /* AWS metadata over IPv6 */,
    ["100::", 64],
  ],
);
const PRIVATE = blockList(
  [
    ["127.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
  ],
  [
    ["::1", 128],
    ["fc00::", 7],
    ["fec0::", 10],
    ["64:ff9b:1::", 48] /* local-use NAT64: a private network's translator */,
  ],
);
// Both lists hold IPv4 and IPv6 rules separately and are only ever asked about the family an address has:
// BlockList would otherwise also match ::ffff:a.b.c.d against IPv4 rules on its own, which the code below
// does explicitly for every embedding form alike.

const RANK: Record<AddressClass, number> = { public: 0, private: 1, forbidden: 2 };
const stricter = (a: AddressClass, b: AddressClass): AddressClass => (RANK[a] >= RANK[b] ? a : b);

function classifyV4(address: string): AddressClass {
  if (FORBIDDEN.check(address, "ipv4")) return "forbidden";
  if (PRIVATE.check(address, "ipv4")) return "private";
  return "public";
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const b = dotted[1].split(".").map(Number);
    text = text.slice(0, -dotted[1].length) + `${((b[0] << 8) | b[1]).toString(16)}:${((b[2] << 8) | b[3]).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const groups = halves.length === 2 ? [...head, ...Array(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** The IPv4 addresses an IPv6 address carries, by the standard embedding forms. */
function embeddedIpv4(g: number[]): string[] {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const found: string[] = [];
  if (zero(0, 5) && g[5] === 0xffff) found.push(v4(g[6], g[7])); // ::ffff:a.b.c.d, IPv4-mapped
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) found.push(v4(g[6], g[7])); // ::ffff:0:a.b.c.d, IPv4-translated
  if (zero(0, 6)) found.push(v4(g[6], g[7])); // ::a.b.c.d, IPv4-compatible (deprecated, still parsed by stacks)
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) found.push(v4(g[6], g[7])); // 64:ff9b::/96, NAT64 (RFC 6052)
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) found.push(v4(g[6], g[7])); // 64:ff9b:1::/48, local-use NAT64
  if (g[0] === 0x2002) found.push(v4(g[1], g[2])); // 2002::/16, 6to4
  if (g[0] === 0x2001 && g[1] === 0) found.push(v4(g[2], g[3]), v4(g[6] ^ 0xffff, g[7] ^ 0xffff)); // Teredo: server, client
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe) found.push(v4(g[6], g[7])); // ISATAP interface id
  return found;
}

export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 4) return classifyV4(address);
  if (family !== 6) return "forbidden"; // not an address at all
  if (address.includes("%")) return "forbidden"; // a zone index only means something for link-local scopes
  const groups = ipv6Groups(address.toLowerCase());
  if (!groups) return "forbidden";
  // Loopback and unspecified first: as IPv4-compatible forms they would read as 0.0.0.1 and 0.0.0.0.
  if (groups.slice(0, 7).every((x) => x === 0) && groups[7] <= 1) return groups[7] === 1 ? "private" : "forbidden";
  const canonical = groups.map((x) => x.toString(16)).join(":");
  let result: AddressClass = FORBIDDEN.check(canonical, "ipv6") ? "forbidden" : PRIVATE.check(canonical, "ipv6") ? "private" : "public";
  for (const inner of embeddedIpv4(groups)) result = stricter(result, classifyV4(inner));
  return result;
}

/**
 * The switch that admits loopback and private targets. ALLOW_PRIVATE_URLS is its name; WEBHOOK_ALLOW_PRIVATE, its
 * old name, still works when the new one is not set. It never admits forbidden addresses.
 */
export const privateAllowed = () => (process.env.ALLOW_PRIVATE_URLS ?? process.env.WEBHOOK_ALLOW_PRIVATE) === "true";

/** True when a connection to this address must not be made under the current settings. */
export function isRefusedAddress(address: string): boolean {
  const c = classifyAddress(address);
  return c === "forbidden" || (c === "private" && !privateAllowed());
}

/** Loopback, private, link-local, metadata or reserved: anything but the public internet. */
export function isPrivateAddress(address: string): boolean {
  return classifyAddress(address) !== "public";
}

export type UrlProblem = { message: string };

/** Syntax and scheme: a problem, or null. */
export function checkUrlShape(raw: string, what = "Webhook URLs"): UrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { message: "The URL is not valid." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { message: `${what} must use http or https.` };
  if (url.username || url.password) return { message: `${what} must not carry credentials.` };
  if (!url.hostname) return { message: "The URL has no host." };
  return null;
}

/** Resolves the host and refuses addresses the current settings do not admit. */
export async function checkUrlTarget(raw: string, what = "Webhook URLs"): Promise<UrlProblem | null> {
  const shape = checkUrlShape(raw, what);
  if (shape) return shape;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return { message: `The host '${host.slice(0, 100)}' does not resolve.` };
  }
  if (addresses.length === 0) return { message: `The host '${host.slice(0, 100)}' does not resolve.` };
  if (addresses.some((a) => classifyAddress(a) === "forbidden")) {
    return { message: `${what} may not point to link-local, cloud metadata or reserved addresses, whatever ALLOW_PRIVATE_URLS says.` };
  }
  if (addresses.some(isRefusedAddress)) {
    return { message: `${what} may not point to loopback, private or link-local addresses.` };
  }
  return null;
}

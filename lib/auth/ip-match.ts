import { BlockList, isIP } from "node:net";

// IP allow-lists: IPv4 and IPv6 addresses and CIDR ranges, matched with node's BlockList.

export function isAddressOrCidr(entry: string): boolean {
  const [address, bits, ...rest] = entry.trim().split("/");
  const family = isIP(address);
  if (family === 0 || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export function parseAddressList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (!isAddressOrCidr(entry)) throw new Error(`not an IP address or CIDR range: ${entry}`);
    const [address, bits] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

const cache = new Map<string, BlockList>();

export function ipAllowed(allowList: string[], ip: string | null): boolean {
  if (!ip) return false;
  const key = allowList.join(",");
  let list = cache.get(key);
  if (!list) {
    if (cache.size > 10_000) cache.clear();
    cache.set(key, (list = parseAddressList(allowList)));
  }
  const family = isIP(ip);
  if (family === 0) return false;
  if (list.check(ip, family === 6 ? "ipv6" : "ipv4")) return true;
  // An IPv4 caller may also be listed in its IPv4-mapped IPv6 form, and the reverse.
  return family === 4 ? list.check(`::ffff:${ip}`, "ipv6") : false;
}

import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// Webhook URLs must be http(s) and must not reach this machine's or a private network (SSRF), unless
// WEBHOOK_ALLOW_PRIVATE=true (development and tests). The check runs when an endpoint is saved and again
// on the address each delivery actually connects to, so a DNS answer that changes later cannot slip through.

const PRIVATE = new BlockList();
for (const [net, bits] of [["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["224.0.0.0", 4], ["240.0.0.0", 4]] as const) {
  PRIVATE.addSubnet(net, bits, "ipv4");
}
// No ::ffff:0:0/96 rule: BlockList already checks IPv4-mapped IPv6 addresses against the IPv4 rules, and it also
// checks every IPv4 address against that rule, so it would refuse the whole public IPv4 internet.
for (const [net, bits] of [["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]] as const) {
  PRIVATE.addSubnet(net, bits, "ipv6");
}

export const privateAllowed = () => process.env.WEBHOOK_ALLOW_PRIVATE === "true";

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], "ipv4");
  return PRIVATE.check(address, family === 6 ? "ipv6" : "ipv4");
}

export type UrlProblem = { message: string };

/** Syntax and scheme: a problem, or null. */
export function checkUrlShape(raw: string): UrlProblem | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { message: "The URL is not valid." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { message: "Webhook URLs must use http or https." };
  if (url.username || url.password) return { message: "Webhook URLs must not carry credentials." };
  if (!url.hostname) return { message: "The URL has no host." };
  return null;
}

/** Resolves the host and refuses private addresses (unless allowed). */
export async function checkUrlTarget(raw: string): Promise<UrlProblem | null> {
  const shape = checkUrlShape(raw);
  if (shape) return shape;
  if (privateAllowed()) return null;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return { message: `The host '${host.slice(0, 100)}' does not resolve.` };
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    return { message: "Webhook URLs may not point to loopback, private or link-local addresses." };
  }
  return null;
}

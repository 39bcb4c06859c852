import { BlockList, isIP } from "node:net";
import type { HeaderReader } from "@/lib/http/header-reader";
import { parseAddressList } from "./ip-match";

// The caller's address. The data plane (scripts/lib/front-request.mjs) writes the socket's address into x-platform-client-ip (overwriting
// whatever a client sent). X-Forwarded-For is believed only when the socket belongs to a proxy listed in
// TRUSTED_PROXIES (addresses or CIDRs), and then only up to the first address that is not such a proxy.

let trusted: BlockList | null | undefined;

function trustedProxies(): BlockList | null {
  if (trusted === undefined) {
    const raw = process.env.TRUSTED_PROXIES?.trim();
    trusted = raw ? parseAddressList(raw.split(",")) : null;
  }
  return trusted;
}

export function normaliseIp(ip: string): string {
  const v = ip.trim().replace(/^\[|\]$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(v);
  return mapped ? mapped[1] : v;
}

function inList(list: BlockList, ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && list.check(ip, family === 6 ? "ipv6" : "ipv4");
}

export function clientIp(headers: HeaderReader): string | null {
  const socket = headers.get("x-platform-client-ip");
  if (!socket) return null;
  let ip = normaliseIp(socket);
  const proxies = trustedProxies();
  if (proxies && inList(proxies, ip)) {
    const hops = (headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map(normaliseIp)
      .filter((h) => isIP(h) !== 0);
    for (let i = hops.length - 1; i >= 0; i--) {
      ip = hops[i];
      if (!inList(proxies, ip)) break;
    }
  }
  return ip;
}

/** For tests: forget the parsed TRUSTED_PROXIES. */
export function resetTrustedProxies(): void {
  trusted = undefined;
}

import type { HeaderReader } from "@/lib/http/header-reader";
// Referrer allow-lists: host patterns such as `example.com`, `*.example.com` or `https://app.example.com`.
// The caller's site comes from the Referer header, or Origin when there is no Referer.

export function isHostPattern(pattern: string): boolean {
  const host = patternHost(pattern);
  return host !== null && /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/.test(host);
}

function patternHost(pattern: string): string | null {
  const p = pattern.trim().toLowerCase();
  if (!p) return null;
  if (p.includes("://")) {
    try {
      return new URL(p.replace("://*.", "://wildcard-placeholder.")).host.replace("wildcard-placeholder.", "*.");
    } catch {
      return null;
    }
  }
  return p.replace(/\/.*$/, "");
}

export function refererHost(headers: HeaderReader): string | null {
  const raw = headers.get("referer") ?? headers.get("origin");
  if (!raw) return null;
  try {
    return new URL(raw).host.toLowerCase();
  } catch {
    return null;
  }
}

export function referrerAllowed(patterns: string[], host: string | null): boolean {
  if (!host) return false;
  // A pattern without a port matches the host on any port, for wildcards as for exact hosts.
  const hosts = [host, host.replace(/:\d+$/, "")];
  return patterns.some((pattern) => {
    const p = patternHost(pattern);
    if (!p) return false;
    if (p.startsWith("*.")) return hosts.some((h) => h.endsWith(p.slice(1)) && h.length > p.length - 1);
    return hosts.includes(p);
  });
}

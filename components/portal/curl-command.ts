// "Copy as curl" for a logged request: the same method, URL, headers and body, ready to paste into a shell. The
// log keeps no credential (lib/usage/redact.ts drops Authorization and redacts keys), so the command reads the key
// from $API_KEY instead; headers the client or the network sets by itself are left out.

const SKIPPED = new Set([
  "host",
  "content-length",
  "connection",
  "accept-encoding",
  "user-agent",
  "authorization",
  "cookie",
  "x-api-key",
  "transfer-encoding",
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-forwarded-port",
  "x-real-ip",
]);

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export function curlCommand(
  origin: string,
  req: { method: string; path: string; headers: Record<string, string>; body?: string | null },
): string {
  const lines = [`curl -X ${req.method} ${quote(origin.replace(/\/$/, "") + req.path)}`, `  -H "Authorization: Bearer $API_KEY"`];
  for (const [name, value] of Object.entries(req.headers)) {
    if (SKIPPED.has(name.toLowerCase()) || value.includes("[REDACTED]")) continue;
    lines.push(`  -H ${quote(`${name}: ${value}`)}`);
  }
  if (req.body) lines.push(`  --data-raw ${quote(req.body)}`);
  return lines.join(" \\\n");
}

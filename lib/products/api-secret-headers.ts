import { open, seal } from "@/lib/keys/secret-box";

// The headers the gateway adds to a product's upstream requests (an upstream API key, say): sealed under the
// server secret and bound to their product, so a database copy does not reveal them and a sealed value copied to
// another product does not open. Reads show only the names.

const context = (productId: string) => `product-secret-headers:${productId}`;

// Stored as `names|sealed`: the names (header names are not secret) readable without the server secret.
export function sealSecretHeaders(productId: string, headers: Record<string, string>): string | null {
  const names = Object.keys(headers);
  return names.length ? `${names.join(",")}|${seal(JSON.stringify(headers), context(productId))}` : null;
}

/** The headers, or {} when none are set or they were sealed under another server secret. */
export function openSecretHeaders(productId: string, sealed: string | null): Record<string, string> {
  if (!sealed) return {};
  const plain = open(sealed.slice(sealed.indexOf("|") + 1), context(productId));
  return plain ? (JSON.parse(plain) as Record<string, string>) : {};
}

/** Names only: the part of the stored value a read may show. */
export function secretHeaderNames(stored: string): string[] {
  const bar = stored.indexOf("|");
  return bar > 0 ? stored.slice(0, bar).split(",") : [];
}

import { createHash, timingSafeEqual } from "node:crypto";

// Operator endpoints (the test clock today) answer only the deployment's administrator: a request must carry
// `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`. Without a configured token nobody is the administrator, so such
// endpoints stay off; an empty value counts as unset.

export type AdminCheck = "allowed" | "refused" | "unconfigured";

const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();

export function adminTokenConfigured(configured = process.env.PLATFORM_ADMIN_TOKEN): boolean {
  return typeof configured === "string" && configured.length > 0;
}

/** Checks an Authorization header against PLATFORM_ADMIN_TOKEN in constant time. */
export function checkAdminToken(authorization: string | null, configured = process.env.PLATFORM_ADMIN_TOKEN): AdminCheck {
  if (!adminTokenConfigured(configured)) return "unconfigured";
  // The scheme is case-insensitive (RFC 9110 §11.1); the token is compared exactly.
  const match = /^Bearer (.+)$/i.exec(authorization ?? "");
  // Both sides hashed first: equal lengths for timingSafeEqual, and the time taken says nothing about the length.
  const given = digest(match?.[1] ?? "");
  const ok = timingSafeEqual(given, digest(configured!));
  return ok && match ? "allowed" : "refused";
}

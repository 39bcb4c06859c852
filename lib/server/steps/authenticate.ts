import { extractCredential } from "@/lib/auth/credentials";
import { verifyCredential } from "@/lib/auth/verify-credential";
import { listenForKeyChanges } from "@/lib/auth/key-invalidation";
import type { RequestContext } from "../request-context";

/** Step 3: who is calling (an API key or an OAuth access token). Public routes (`auth: "none"`) skip it. */
export async function authenticate(ctx: RequestContext): Promise<void> {
  if (ctx.route.auth === "none") return;
  // Revocations made by another process (or the portal) reach this process's key cache through the bus.
  listenForKeyChanges();
  ctx.auth = await verifyCredential(extractCredential(ctx.request.headers, ctx.request.url.searchParams));
}

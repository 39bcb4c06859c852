import "server-only";
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { zodToApiError } from "@/lib/http/zod-errors";
import { grants } from "@/lib/auth/scopes";
import { clientIp } from "@/lib/auth/client-ip";
import { formErrors, humanApiMessage, topField, zodFieldErrors, type FormError } from "./form-errors";
import { requirePortalContext, type PortalContext } from "./portal-context";

// The one way a portal server action runs a write: as the signed-in user, refused when the user's role lacks the
// scope the API would ask for, answering with the API's own error (message, field, code) instead of throwing,
// and refreshing the pages that show what changed.

export interface ActionResult<T = unknown> {
  ok: boolean;
  data?: T;
  /** In words for a person: `field` is the form field (first part of the API's path), `fields` every field's problem. */
  error?: FormError;
}

/** Where the user's request came from, for the audit log. */
export interface RequestClient {
  ip: string | null;
  userAgent: string | null;
}

export async function runAction<T>(
  scope: string | null,
  work: (ctx: PortalContext, client: RequestClient) => Promise<T>,
  paths: string[] = [],
): Promise<ActionResult<T>> {
  const ctx = await requirePortalContext();
  if (scope && !grants(ctx.auth.scopes, scope))
    return { ok: false, error: { message: `Your role (${ctx.role}) cannot do this.`, code: "INSUFFICIENT_SCOPE" } };
  const h = await headers();
  try {
    const data = await work(ctx, { ip: clientIp(h), userAgent: h.get("user-agent") });
    for (const p of paths) revalidatePath(p);
    return { ok: true, data };
  } catch (e) {
    if (e instanceof z.ZodError) {
      const fields = zodFieldErrors(e);
      const first = zodToApiError(e, "body");
      const field = topField(first.field);
      return {
        ok: false,
        error: { message: fields[field] ?? Object.values(fields)[0], field, path: first.field, code: first.code, fields },
      };
    }
    if (e instanceof ApiError) {
      const field = e.field ? topField(e.field) : undefined;
      return {
        ok: false,
        error: {
          message: humanApiMessage(e.message),
          field,
          path: e.field,
          code: e.code,
          fields: formErrors({ message: e.message, field }),
        },
      };
    }
    console.error("portal action failed", e);
    return { ok: false, error: { message: "Something went wrong. Try again." } };
  }
}

import { ZodError } from "zod";
import { ApiError } from "./errors";
import { zodToApiError } from "./zod-errors";
import { meta } from "./envelope";

/** Prisma's known errors arrive through the driver adapter with a `code`; we only read that. */
function prismaCode(err: unknown): string | undefined {
  if (err && typeof err === "object" && "code" in err && typeof (err as { code: unknown }).code === "string") {
    const code = (err as { code: string }).code;
    if (/^P\d{4}$/.test(code)) return code;
  }
  return undefined;
}

/** Any thrown value → an ApiError. Unknown errors become a generic 500 and are logged with the request id. */
export function toApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ZodError) return zodToApiError(err, "body");
  switch (prismaCode(err)) {
    case "P2002":
      return new ApiError({
        status: 409,
        type: "conflict_error",
        code: "ALREADY_EXISTS",
        message: "A resource with these values already exists.",
      });
    case "P2025":
      return new ApiError({ status: 404, type: "not_found_error", code: "RESOURCE_NOT_FOUND", message: "No such resource." });
    case "P2003":
      return new ApiError({
        status: 409,
        type: "conflict_error",
        code: "STATE_CONFLICT",
        message: "The resource is referenced by, or refers to, a record that does not exist.",
      });
  }
  console.error(`[${requestId}] unhandled error`, err);
  return new ApiError({
    status: 500,
    type: "server_error",
    code: "INTERNAL_ERROR",
    message: `Something went wrong on our side. Quote request id ${requestId} when contacting support.`,
  });
}

export function documentationUrl(baseUrl: string, code: string): string {
  return `${baseUrl}/docs/errors#${code}`;
}

export function errorBody(error: ApiError, requestId: string, baseUrl: string) {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.field !== undefined ? { field: error.field } : {}),
      ...(error.suggestion !== undefined ? { suggestion: error.suggestion } : {}),
      documentation: documentationUrl(baseUrl, error.code),
      ...(error.extra ?? {}),
    },
    meta: meta(requestId),
  };
}

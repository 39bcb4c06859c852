// The one error type of the API. Thrown anywhere on a request's path; lib/http/error-mapper.ts turns it (and
// zod, Prisma and unknown errors) into the spec's error envelope.

export type ErrorType =
  | "validation_error"
  | "authentication_error"
  | "authorization_error"
  | "not_found_error"
  | "conflict_error"
  | "rate_limit_error"
  | "server_error"
  | "version_sunset"
  | "idempotency_error"
  | "card_error";

export interface ApiErrorInit {
  status: number;
  type: ErrorType;
  code: string;
  message: string;
  field?: string;
  suggestion?: string;
  /** Extra members of the error object for particular errors (retryAfter, limit, migration, ...). */
  extra?: Record<string, unknown>;
  /** Response headers the error needs (Retry-After, Allow, ...). */
  headers?: Record<string, string>;
  /** Internal: whose credential was refused, for the audit log. Never sent to the client. */
  subject?: { keyId: string; businessId: string; environment: string; actorType?: "api_key" | "oauth_client"; actorId?: string };
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly field?: string;
  readonly suggestion?: string;
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly subject?: ApiErrorInit["subject"];

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = "ApiError";
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.field = init.field;
    this.suggestion = init.suggestion;
    this.extra = init.extra;
    this.headers = init.headers;
    this.subject = init.subject;
  }
}

// Constructors for the errors the platform raises often; each names one row of the contract's code list.

export const invalidParameter = (field: string, message: string, suggestion?: string) =>
  new ApiError({ status: 400, type: "validation_error", code: "INVALID_PARAMETER", field, message, suggestion });

export const invalidField = (field: string, message: string, suggestion?: string) =>
  new ApiError({ status: 400, type: "validation_error", code: "INVALID_FIELD", field, message, suggestion });

export const missingField = (field: string) =>
  new ApiError({
    status: 400,
    type: "validation_error",
    code: "MISSING_REQUIRED_FIELD",
    field,
    message: `The field '${field}' is required.`,
  });

export const notFound = (what: string, id?: string) =>
  new ApiError({
    status: 404,
    type: "not_found_error",
    code: "RESOURCE_NOT_FOUND",
    // The id is echoed only when it has the platform's own safe shape (letters, digits, underscore).
    message: id && /^[A-Za-z0-9_]{1,64}$/.test(id) ? `No such ${what}: '${id}'.` : `No such ${what}.`,
  });

export const stateConflict = (message: string, extra?: Record<string, unknown>) =>
  new ApiError({ status: 409, type: "conflict_error", code: "STATE_CONFLICT", message, extra });

export const unauthenticated = (
  code: "INVALID_API_KEY" | "API_KEY_EXPIRED" | "API_KEY_REVOKED",
  message: string,
  subject?: ApiErrorInit["subject"],
) =>
  new ApiError({
    status: 401,
    type: "authentication_error",
    code,
    message,
    subject,
    headers: { "WWW-Authenticate": 'Bearer realm="api"' },
  });

export const forbidden = (code: string, message: string, extra?: Record<string, unknown>, subject?: ApiErrorInit["subject"]) =>
  new ApiError({ status: 403, type: "authorization_error", code, message, extra, subject });

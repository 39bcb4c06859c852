import type { ZodError } from "zod";
import { ApiError } from "./errors";

type Issue = ZodError["issues"][number];

/** `steps[2].config.url`: the path a person reads, from zod's path array. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function allowedValues(issue: Issue): string[] | undefined {
  if (issue.code === "invalid_value") return issue.values.map((v) => String(v));
  return undefined;
}

/**
 * Whether an issue is about an absent value. The pipeline parses with `reportInput`, so `input` tells: an absent
 * enum field (an invalid_value issue) is then "missing" too, not a wrong value. Without it (zod 4 drops `input`
 * by default) only invalid_type can tell, by its default message ("..., received undefined").
 */
function isMissing(issue: Issue): boolean {
  if (issue.code === "custom" || issue.code === "unrecognized_keys") return false;
  if ("input" in issue) return issue.input === undefined;
  return issue.code === "invalid_type" && /received undefined$/.test(issue.message);
}

/**
 * Turns the first zod issue into the spec's validation error. `location` picks the code family: body fields
 * are INVALID_FIELD / MISSING_REQUIRED_FIELD, query and path parameters INVALID_PARAMETER.
 */
export function zodToApiError(error: ZodError, location: "body" | "query" | "params"): ApiError {
  const issue = error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0];
    const field = formatPath([...issue.path, key]);
    return new ApiError({
      status: 400,
      type: "validation_error",
      code: location === "body" ? "INVALID_FIELD" : "INVALID_PARAMETER",
      field,
      message: location === "body" ? `Unknown field '${field}'.` : `Unknown parameter '${field}'.`,
    });
  }
  const field = formatPath(issue.path);
  // A schema's own cross-field rule may name the code it means (e.g. a field required for one price type).
  const declared = issue.code === "custom" ? (issue.params as { code?: string } | undefined)?.code : undefined;
  if (declared) {
    return new ApiError({ status: 400, type: "validation_error", code: declared, field: field || undefined, message: issue.message });
  }
  const missing = isMissing(issue);
  if (missing && location === "body") {
    return new ApiError({
      status: 400,
      type: "validation_error",
      code: "MISSING_REQUIRED_FIELD",
      field,
      message: field ? `The field '${field}' is required.` : "A JSON object body is required.",
    });
  }
  const values = allowedValues(issue);
  const suggestion = values ? `Use one of: ${values.join(", ")}.` : undefined;
  const isTypeField = location === "body" && issue.path[issue.path.length - 1] === "type" && values;
  const where = location === "body" ? "field" : "parameter";
  return new ApiError({
    status: 400,
    type: "validation_error",
    code: isTypeField ? "INVALID_TYPE" : location === "body" ? "INVALID_FIELD" : "INVALID_PARAMETER",
    field: field || undefined,
    message: field ? `Invalid ${where} '${field}': ${issue.message}` : issue.message,
    suggestion,
  });
}

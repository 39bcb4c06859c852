import type { z } from "zod";
import { zodToApiError } from "@/lib/http/zod-errors";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { parseJsonBody } from "@/lib/http/read-body";
import type { RequestContext } from "../request-context";
import type { StepDoc } from "../step-doc";

// The pipeline's own query parameters, which no route's query schema lists.
const PIPELINE_PARAMETERS = new Set(["api_key", "version", "api-version"]);

export function parseWith<T>(schema: z.ZodType<T> | undefined, input: unknown, location: "body" | "query" | "params"): T {
  if (!schema) return undefined as T;
  // reportInput: the error mapper tells an absent field (MISSING_REQUIRED_FIELD) from a wrong one by the input.
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw zodToApiError(result.error, location);
  return result.data;
}

/** The query object a non-collection route validates: everything but the pipeline's own parameters. */
export function plainQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (!PIPELINE_PARAMETERS.has(k)) out[k] = v;
  return out;
}

/** Step 8: path parameters, query and JSON body, each validated by the route's zod schema. */
export async function parseInput(ctx: RequestContext): Promise<void> {
  const { route, request } = ctx;
  ctx.params = parseWith(route.params, ctx.rawParams, "params");
  const search = request.url.searchParams;
  ctx.query = route.collection ? parseCollectionQuery(search, route.collection) : parseWith(route.query, plainQuery(search), "query");
  if (!route.body) return;
  const json = parseJsonBody(await request.readText(), request.headers.get("content-type"));
  ctx.rawBody = json.raw;
  ctx.body = parseWith(route.body, json.value, "body");
}

export const parseInputDoc: StepDoc = {
  step: "parse-input",
  appliesTo: (route) => !!(route.body || route.query || route.collection || route.params),
  statuses: { 400: "Invalid input: a malformed parameter, header or body (validation_error)" },
};

/** Routes that read a body refuse one over 1 MB. */
export const readBodyDoc: StepDoc = {
  step: "read-body",
  appliesTo: (route) => !!route.body,
  statuses: { 413: "Body over 1 MB (PAYLOAD_TOO_LARGE)" },
};

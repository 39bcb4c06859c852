import { resolveVersion } from "@/lib/versions/resolve-version";
import { versionRegistry } from "@/lib/versions/registry";
import type { RequestContext } from "../request-context";
import { always, type StepDoc } from "../step-doc";

/** Step 2: the API version (path, `API-Version` header, `version` query or vendor media type) and its headers. */
export function resolveRequestVersion(ctx: RequestContext): void {
  const { request, route } = ctx;
  const version = resolveVersion(
    { pathVersion: route.path.split("/")[1], headers: request.headers, query: request.url.searchParams, baseUrl: request.baseUrl },
    versionRegistry(),
    ctx.at,
  );
  ctx.version = version;
  Object.assign(ctx.headers, version.headers);
  ctx.headers["Content-Type"] = version.contentType;
}

export const resolveRequestVersionDoc: StepDoc = {
  step: "version",
  appliesTo: always,
  statuses: {
    400: "Invalid input: a malformed parameter, header or body (validation_error)",
    410: "The API version has been sunset (VERSION_SUNSET)",
  },
  headers: {
    "X-API-Version": { description: "The API version that answered", schema: { type: "string" }, on: "all" },
    Deprecation: { description: "`true` while the version in use is deprecated (RFC 9745)", schema: { type: "string" }, on: "all" },
    Sunset: { description: "HTTP date after which a deprecated version stops answering (RFC 8594)", schema: { type: "string" }, on: "all" },
    "X-API-Deprecation": {
      description: "On a deprecated version: when it was deprecated (ISO 8601)",
      schema: { type: "string" },
      on: "all",
    },
    "X-API-Sunset": { description: "On a deprecated version: when it stops answering (ISO 8601)", schema: { type: "string" }, on: "all" },
    Link: {
      description: "On a deprecated version: the migration guide (rel=deprecation) and the successor (rel=alternate)",
      schema: { type: "string" },
      on: "all",
    },
  },
};

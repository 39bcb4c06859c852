import { resolveVersion } from "@/lib/versions/resolve-version";
import { versionRegistry } from "@/lib/versions/registry";
import type { RequestContext } from "../request-context";

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

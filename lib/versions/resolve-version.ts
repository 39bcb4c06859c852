import type { HeaderReader } from "@/lib/http/header-reader";
import type { RequestVersion } from "@/lib/http/route";
import { ApiError, invalidParameter } from "@/lib/http/errors";
import { currentVersion, effectiveStatus, type VersionRecord } from "./registry";

/** When the client asked with a vendor media type, `contentType` answers in the same kind. */
export interface ResolvedVersion extends RequestVersion {
  record: VersionRecord;
}

const VENDOR = /application\/vnd\.platform\.(v\d+)\+json/;

function normalise(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (/^v?\d{1,3}$/.test(v)) return v.startsWith("v") ? v : `v${v}`;
  return null;
}

interface VersionInput {
  pathVersion: string;
  headers: HeaderReader;
  query: URLSearchParams;
  baseUrl: string;
}

/**
 * Path version first; the header and query alternatives may repeat it but not contradict it (400).
 * A deprecated version answers with the spec's notices; a sunset one with 410 `version_sunset`.
 */
export function resolveVersion(input: VersionInput, registry: Map<string, VersionRecord>, at: Date): ResolvedVersion {
  const { pathVersion, headers, query } = input;
  const alternatives: [string, string | null][] = [
    ["Accept", headers.get("accept")?.match(VENDOR)?.[1] ?? null],
    ["X-API-Version", headers.get("x-api-version")],
    ["version", query.get("version")],
    ["api-version", query.get("api-version")],
  ];
  for (const [where, raw] of alternatives) {
    if (raw === null) continue;
    const named = normalise(raw);
    if (named === null) throw invalidParameter(where, `'${where}' must name a version such as ${pathVersion}.`);
    if (named !== pathVersion) {
      throw invalidParameter(
        where,
        `'${where}' asks for ${named} but the path asks for ${pathVersion}.`,
        `Call /${named}/... or drop the '${where}' version.`,
      );
    }
  }
  const record = registry.get(pathVersion);
  if (!record) {
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "ROUTE_NOT_FOUND",
      message: `API version ${pathVersion} does not exist.`,
    });
  }
  const status = effectiveStatus(record, at);
  const current = currentVersion(registry, at);
  const guide = record.migrationGuide ? new URL(record.migrationGuide, input.baseUrl).toString() : `${input.baseUrl}/docs`;
  if (status === "sunset") {
    // The named replacement first: with only v1 in the registry, currentVersion() would name v1 itself.
    const target = record.replacement ?? current;
    throw new ApiError({
      status: 410,
      type: "version_sunset",
      code: "VERSION_SUNSET",
      message: `API version ${pathVersion} was sunset on ${record.sunsetDate}. Use ${target}.`,
      suggestion: `Migrate to ${target}: ${guide}`,
      extra: { migration: guide, currentVersion: target },
    });
  }
  const acceptsVendor = VENDOR.test(headers.get("accept") ?? "");
  const out: ResolvedVersion = {
    version: pathVersion,
    record,
    headers: { "X-API-Version": pathVersion },
    contentType: acceptsVendor ? `application/vnd.platform.${pathVersion}+json` : "application/json",
  };
  if (status === "deprecated") {
    const replacement = record.replacement ?? current;
    out.headers["Deprecation"] = "true";
    out.headers["X-API-Deprecation"] = record.deprecationDate ? new Date(record.deprecationDate).toISOString() : "true";
    out.headers["Link"] = `<${guide}>; rel="deprecation", <${input.baseUrl}/${replacement}>; rel="alternate"`;
    if (record.sunsetDate) {
      out.headers["Sunset"] = new Date(record.sunsetDate).toUTCString();
      out.headers["X-API-Sunset"] = new Date(record.sunsetDate).toISOString();
    }
    out.warning = `API version ${pathVersion} is deprecated${record.sunsetDate ? ` and will be sunset on ${new Date(record.sunsetDate).toISOString().slice(0, 10)}` : ""}. Migrate to ${replacement}: ${guide}`;
  }
  return out;
}

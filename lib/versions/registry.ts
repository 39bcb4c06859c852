import { z } from "zod";

// The one registry of API versions. Defaults live here; the API_VERSIONS environment variable (JSON, keyed by
// version) overrides or adds records, e.g. to mark v1 deprecated with a sunset date:
//   API_VERSIONS='{"v1":{"status":"deprecated","deprecationDate":"2027-01-01","sunsetDate":"2027-07-01","replacement":"v2"}}'

export const VersionStatus = z.enum(["beta", "stable", "deprecated"]);

export const VersionRecord = z.object({
  version: z.string().regex(/^v\d+$/),
  status: VersionStatus,
  releaseDate: z.string(),
  deprecationDate: z.string().optional(),
  sunsetDate: z.string().optional(),
  supportUntil: z.string().optional(),
  changelog: z.array(z.string()).default([]),
  features: z.array(z.string()).default([]),
  breakingChanges: z.array(z.string()).default([]),
  migrationGuide: z.string().optional(),
  replacement: z.string().optional(),
});
export type VersionRecord = z.infer<typeof VersionRecord>;

const DEFAULTS: VersionRecord[] = [
  {
    version: "v1",
    status: "stable",
    releaseDate: "2026-11-01",
    changelog: ["Initial release: products, prices, features, API keys, versions and the OpenAPI document."],
    features: ["products", "prices", "features", "api-keys", "versions", "openapi"],
    breakingChanges: [],
    migrationGuide: "/docs/migrations/v1",
  },
];

const Overrides = z.record(z.string(), VersionRecord.partial().omit({ version: true }));

export function loadRegistry(raw: string | undefined = process.env.API_VERSIONS): Map<string, VersionRecord> {
  const map = new Map(DEFAULTS.map((r) => [r.version, { ...r }]));
  if (!raw) return map;
  const parsed = Overrides.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`API_VERSIONS is not valid: ${parsed.error.issues[0].message}`);
  for (const [version, patch] of Object.entries(parsed.data)) {
    const base = map.get(version) ?? {
      version,
      status: "beta" as const,
      releaseDate: new Date().toISOString().slice(0, 10),
      changelog: [],
      features: [],
      breakingChanges: [],
    };
    map.set(version, VersionRecord.parse({ ...base, ...patch, version }));
  }
  return map;
}

let registry: Map<string, VersionRecord> | undefined;

export function versionRegistry(): Map<string, VersionRecord> {
  return (registry ??= loadRegistry());
}

/** For tests: replace the registry (null restores the one from the environment). */
export function setVersionRegistry(next: Map<string, VersionRecord> | null): void {
  registry = next ?? undefined;
}

export type EffectiveStatus = "beta" | "stable" | "deprecated" | "sunset";

/** The status at `at`: dates move a version along its lifecycle without a redeploy. */
export function effectiveStatus(record: VersionRecord, at: Date): EffectiveStatus {
  if (record.sunsetDate && at.getTime() >= Date.parse(record.sunsetDate)) return "sunset";
  if (record.status === "deprecated") return "deprecated";
  if (record.deprecationDate && at.getTime() >= Date.parse(record.deprecationDate)) return "deprecated";
  return record.status;
}

/** The newest version that is stable at `at`: the one a sunset or deprecation notice points to. */
export function currentVersion(reg: Map<string, VersionRecord>, at: Date): string {
  const stable = [...reg.values()]
    .filter((r) => effectiveStatus(r, at) === "stable")
    .sort((a, b) => Number(b.version.slice(1)) - Number(a.version.slice(1)));
  return stable[0]?.version ?? [...reg.keys()].sort().at(-1)!;
}

import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { AppSlug, AppStatus } from "@/lib/schemas/app";
import { APP_TYPES, APP_TYPE_LIST, type AppType } from "./app-types";

// GET /v1/apps/schemas/{type}: an app type's JSON Schema (draft 2020-12), generated from the zod schema the API
// validates with, in its input form (fields with defaults are optional and show the default). The API refuses
// fields a type does not know (lib/apps/parse-app.ts), so every object says `additionalProperties: false`. A form
// generator reads this document to build the editor of any type.

type Json = Record<string, unknown>;

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
const BY_NAME = new Map<string, AppType>();
for (const t of APP_TYPE_LIST) {
  BY_NAME.set(squash(t.type), t.type);
  BY_NAME.set(squash(t.slug), t.type);
}

export function resolveAppType(raw: string): AppType {
  const type = raw.length <= 40 ? BY_NAME.get(squash(raw)) : undefined;
  if (!type)
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      message: /^[A-Za-z0-9_-]{1,40}$/.test(raw) ? `No app type named '${raw}'.` : "No such app type.",
      suggestion: `Use one of: ${APP_TYPE_LIST.map((t) => t.type).join(", ")}.`,
    });
  return type;
}

/** Closes every object that lists its properties: what the API answers for an unknown field, said up front. */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (typeof node !== "object" || node === null) return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = closeObjects(v);
  if (out.type === "object" && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const cache = new Map<string, Json>();

export function appSchemaDocument(type: AppType, baseUrl: string): Json {
  const key = `${baseUrl}|${type}`;
  let doc = cache.get(key);
  if (!doc) {
    const raw = z.toJSONSchema(APP_TYPES[type].schema, { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as Json;
    const { $schema: _s, ...rest } = raw;
    // The record's own fields beside the app's, so the document describes a whole POST /v1/apps body.
    const record = (schema: z.ZodType, description: string) => {
      const { $schema: _x, ...js } = z.toJSONSchema(schema, { io: "input" }) as Json;
      return { ...js, description };
    };
    rest.properties = {
      ...(rest.properties as Json),
      products: record(z.array(z.string()), "Ids of the business's own products the app presents"),
      slug: record(AppSlug, "Deployment-wide unique address: /p/{slug} (Developer) or /apps/{slug}; made from the name when omitted"),
      status: record(AppStatus, "draft (seen only by its business) or published; default draft"),
    };
    rest.required = [...new Set(["type", ...((rest.required as string[]) ?? [])])];
    doc = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: `${baseUrl}/v1/apps/schemas/${type}`,
      title: `${type} app`,
      description: APP_TYPES[type].description,
      // The recursive NavItem is zod's only unnamed definition: give it its name.
      ...(JSON.parse(JSON.stringify(closeObjects(rest)).replaceAll("__schema0", "NavItem")) as Json),
    };
    if (cache.size > 100) cache.clear();
    cache.set(key, doc);
  }
  return doc;
}

import { z } from "zod";
import { describeScope } from "@/lib/oauth/scope-words";
import { ErrorEnvelope, Meta, Pagination } from "@/lib/schemas/common";
import type { CollectionSpec } from "@/lib/http/collection-query";
import { DEFAULT_LIMIT, MAX_LIMIT } from "@/lib/http/collection-query";
import type { AnyRoute } from "@/lib/http/route";

// OpenAPI 3.1 from the route table: the same zod schemas that validate requests describe them here, so the
// document cannot drift from what the server does.

type Json = Record<string, unknown>;

class SchemaSink {
  readonly components: Record<string, Json> = {};

  /** JSON Schema for a zod schema; named sub-schemas (`.meta({ id })`) move to components and are referenced. */
  convert(schema: z.ZodType, io: "input" | "output"): Json {
    const out = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;
    const defs = (out.$defs ?? {}) as Record<string, Json>;
    delete out.$defs;
    delete out.$schema;
    for (const [id, def] of Object.entries(defs)) this.components[id] ??= this.rewrite(def);
    const id = z.globalRegistry.get(schema)?.id as string | undefined;
    if (id) {
      delete out.id;
      this.components[id] ??= this.rewrite(out);
      return { $ref: `#/components/schemas/${id}` };
    }
    return this.rewrite(out);
  }

  private rewrite(schema: Json): Json {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  }
}

const ERROR_RESPONSES: Record<string, string> = {
  "400": "Invalid input (validation_error)",
  "401": "Missing, invalid, expired or revoked API key",
  "403": "The key lacks a scope, or a restriction refused the request",
  "404": "No such resource (or one of another business or environment)",
  "410": "The API version has been sunset",
  "500": "Server error; quote the request id",
};

function collectionParameters(spec: CollectionSpec): Json[] {
  const p = (name: string, description: string, schema: Json = { type: "string" }) => ({
    name,
    in: "query",
    required: false,
    description,
    schema,
  });
  const params: Json[] = [
    p("limit", `Page size, 1 to ${MAX_LIMIT}`, { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
    p("offset", "Rows to skip (offset pagination); not with cursor", { type: "integer", minimum: 0, default: 0 }),
    p("cursor", "Opaque cursor from pagination.nextCursor; stable while rows are inserted"),
    p("sort", `Comma-separated fields, '-' for descending. One of: ${spec.sortable.join(", ")}. Default -createdAt`),
    p("fields", `Only these fields (or '-name' to exclude); id is always kept. One of: ${spec.fields.join(", ")}`),
  ];
  if (spec.expand?.length) params.push(p("expand", `Relations to expand: ${spec.expand.join(", ")}`));
  if (spec.search) params.push(p("q", "Full-text search; every word must match"));
  for (const [field, def] of Object.entries(spec.filters)) {
    const schema: Json =
      def.type === "enum"
        ? { type: "string", enum: def.values }
        : def.type === "number"
          ? { type: "number" }
          : def.type === "integer"
            ? { type: "integer", format: "int32" }
            : def.type === "boolean"
              ? { type: "boolean" }
              : def.type === "date"
                ? { type: "string", format: "date-time" }
                : { type: "string" };
    params.push({ ...p(field, `Exact match; comma-separated values match any. Also ${field}[gte], [gt], [lte], [lt], [ne].`), schema });
  }
  return params;
}

/** The OAuth 2.0 authorization-code flow (lib/oauth, docs/oauth.md): its endpoints sit at the server's root. */
function oauthScheme(serverUrl: string, routes: AnyRoute[]): Json {
  let origin = "";
  try {
    origin = new URL(serverUrl).origin;
  } catch {
    /* a relative server URL: relative endpoints */
  }
  const scopes = Object.fromEntries(
    [...new Set(routes.map((r) => r.scope).filter((x): x is string => !!x))].sort().map((x) => [x, describeScope(x)]),
  );
  return {
    type: "oauth2",
    description: "Third-party applications acting for a portal user's business (access tokens oat_...). See /docs/oauth.",
    flows: {
      authorizationCode: {
        authorizationUrl: `${origin}/oauth/authorize`,
        tokenUrl: `${origin}/oauth/token`,
        refreshUrl: `${origin}/oauth/token`,
        scopes,
      },
    },
  };
}

export function buildOpenApi(routes: AnyRoute[], serverUrl = "/"): Json {
  const sink = new SchemaSink();
  const envelope = { $ref: "#/components/schemas/ErrorEnvelope" };
  sink.convert(ErrorEnvelope, "output");
  const metaRef = sink.convert(Meta, "output");
  const paginationRef = sink.convert(Pagination, "output");
  const paths: Record<string, Record<string, Json>> = {};

  for (const route of routes) {
    const parameters: Json[] = [];
    if (route.params) {
      for (const name of Object.keys((route.params as z.ZodObject).shape)) {
        parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
      }
    }
    if (route.collection) parameters.push(...collectionParameters(route.collection));
    else if (route.query) {
      for (const [name, s] of Object.entries((route.query as z.ZodObject).shape)) {
        parameters.push({
          name,
          in: "query",
          required: !(s as z.ZodType).safeParse(undefined).success,
          schema: sink.convert(s as z.ZodType, "input"),
        });
      }
    }
    if (route.method === "POST" && route.auth !== "none") {
      parameters.push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        description: "Replays the first result for 24 hours instead of creating a duplicate",
        schema: { type: "string", maxLength: 255 },
      });
    }

    const responses: Record<string, Json> = {};
    const r = route.response;
    if (r.kind === "single") {
      responses[String(r.status)] = {
        description: route.summary,
        content: {
          "application/json": {
            schema: { type: "object", required: ["data", "meta"], properties: { data: sink.convert(r.schema, "output"), meta: metaRef } },
          },
        },
      };
      if (route.method === "POST" && route.auth !== "none" && r.status === 201) {
        responses["200"] = {
          description: "Replayed result of an earlier request with the same Idempotency-Key (header Idempotent-Replayed: true)",
        };
      }
    } else if (r.kind === "collection") {
      responses["200"] = {
        description: route.summary,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["data", "pagination", "meta"],
              properties: { data: { type: "array", items: sink.convert(r.schema, "output") }, pagination: paginationRef, meta: metaRef },
            },
          },
        },
      };
    } else if (r.kind === "empty") {
      responses["204"] = { description: "Deleted; no content" };
    } else if (r.kind === "text") {
      responses["200"] = { description: r.description, content: { [r.contentType.split(";")[0]]: { schema: { type: "string" } } } };
    } else {
      responses["200"] = { description: r.description, content: { "application/json": { schema: { type: "object" } } } };
    }
    const errors = route.auth === "none" ? ["404", "500"] : Object.keys(ERROR_RESPONSES);
    if (route.method === "POST" && route.auth !== "none") errors.push("409", "422");
    if (route.body) errors.push("413");
    for (const code of errors)
      responses[code] = {
        description:
          ERROR_RESPONSES[code] ??
          {
            "409": "Idempotency key in use, or a state conflict",
            "422": "Idempotency key reused with another request",
            "413": "Body over 1 MB",
          }[code]!,
        content: { "application/json": { schema: envelope } },
      };

    const operation: Json = {
      operationId: `${route.method.toLowerCase()}${route.path
        .replace(/\{(\w+)\}/g, "By_$1")
        .split(/[/_-]/)
        .filter(Boolean)
        .map((s) => s[0].toUpperCase() + s.slice(1))
        .join("")}`,
      summary: route.summary,
      tags: [route.tag],
      parameters,
      responses,
      ...(route.auth === "none"
        ? { security: [] }
        : {
            "x-required-scope": route.scope,
            // An API key, or an OAuth access token granted this route's scope.
            security: [{ bearerAuth: [] }, { apiKeyQuery: [] }, { oauth2: route.scope ? [route.scope] : [] }],
          }),
    };
    if (route.body)
      operation.requestBody = { required: true, content: { "application/json": { schema: sink.convert(route.body, "input") } } };
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  return {
    openapi: "3.1.0",
    info: {
      title: "Developer Platform API",
      version: "v1",
      description:
        "Products, prices, features and API keys of a developer platform. Authenticate with `Authorization: Bearer sk_test_...` (or `?api_key=`). Test keys see only test data, live keys only live data.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }, { apiKeyQuery: [] }, { oauth2: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: `${name} endpoints` })),
    paths,
    components: {
      schemas: sink.components,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key: sk_test_... or sk_live_..." },
        apiKeyQuery: { type: "apiKey", in: "query", name: "api_key", description: "Less secure: keys in URLs end up in logs" },
        oauth2: oauthScheme(serverUrl, routes),
      },
    },
  };
}

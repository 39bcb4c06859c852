import { z } from "zod";
import { describeScope } from "@/lib/oauth/scope-words";
import { ErrorObject, Meta, Pagination } from "@/lib/schemas/common";
import { ERROR_CATALOG } from "@/lib/http/error-catalog";
import type { CollectionSpec } from "@/lib/http/collection-query";
import { DEFAULT_LIMIT, MAX_LIMIT } from "@/lib/http/collection-query";
import type { AnyRoute } from "@/lib/http/route";
import type { HeaderDoc } from "./step-doc";
import { API_PIPELINE_DOCS } from "./pipeline";

// OpenAPI 3.1 from the route table: the same zod schemas that validate requests describe them here, so the
// document cannot drift from what the server does.

type Json = Record<string, unknown>;

/**
 * A request schema states its defaults in words, not as `default`: generators (openapi-typescript) make a property
 * with a `default` required, which in a request is the opposite of what a default means.
 */
function withoutDefaults(node: Json): Json {
  const walk = (n: unknown, isSchema: boolean): unknown => {
    if (Array.isArray(n)) return n.map((x) => walk(x, true));
    if (!n || typeof n !== "object") return n;
    const out: Json = {};
    for (const [k, v] of Object.entries(n as Json)) {
      if (isSchema && k === "default") continue;
      if (isSchema && ["enum", "const", "examples", "example"].includes(k)) out[k] = v;
      else if (isSchema && ["properties", "$defs", "patternProperties"].includes(k)) {
        out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, sub]) => [name, walk(sub, true)]));
      } else out[k] = walk(v, true);
    }
    if (isSchema && "default" in (n as Json)) {
      const said = `Defaults to ${JSON.stringify((n as Json).default)}.`;
      out.description = out.description ? `${String(out.description).replace(/\.?$/, ".")} ${said}` : said;
    }
    return out;
  };
  return walk(node, true) as Json;
}

class SchemaSink {
  readonly components: Record<string, Json> = {};
  private readonly inputNames = new Set<string>();

  /**
   * A request-only schema needs no `Input` suffix: where no output form took the plain name, the input form gets
   * it back. Returns the document with those references renamed.
   */
  settle<T>(doc: T): T {
    let text = JSON.stringify(doc);
    for (const name of this.inputNames) {
      const plain = name.slice(0, -"Input".length);
      if (this.components[plain] || !this.components[name]) continue;
      text = text.replaceAll(`"#/components/schemas/${name}"`, `"#/components/schemas/${plain}"`);
      text = text.replace(`"${name}":{`, `"${plain}":{`);
    }
    return JSON.parse(text) as T;
  }

  /**
   * JSON Schema for a zod schema; named sub-schemas (`.meta({ id })`) move to components and are referenced.
   * zod's defaults make a schema's input and output differ (a property with a default is optional in a request,
   * always present in a response): where they differ, the input form is its own component, `<id>Input`, and the
   * output form keeps the plain name.
   */
  convert(schema: z.ZodType, io: "input" | "output"): Json {
    const toJson = (mode: "input" | "output") =>
      z.toJSONSchema(schema, { io: mode, unrepresentable: "any", target: "draft-2020-12" }) as Json;
    const out = io === "input" ? withoutDefaults(toJson(io)) : toJson(io);
    const defs = (out.$defs ?? {}) as Record<string, Json>;
    delete out.$defs;
    delete out.$schema;
    const id = z.globalRegistry.get(schema)?.id as string | undefined;
    if (id && !out.$ref) {
      delete out.id;
      defs[id] = out;
    }
    const renamed = io === "input" ? this.inputOnly(defs, toJson("output")) : new Set<string>();
    const name = (x: string) => (renamed.has(x) ? `${x}Input` : x);
    for (const id of renamed) this.inputNames.add(`${id}Input`);
    for (const [defId, def] of Object.entries(defs)) this.components[name(defId)] ??= this.rewrite(def, renamed);
    if (id) return { $ref: `#/components/schemas/${name(id)}` };
    return this.rewrite(out, renamed);
  }

  /** The ids whose input form differs from their output form, or that reference one that does. */
  private inputOnly(inputDefs: Record<string, Json>, output: Json): Set<string> {
    const outputDefs = { ...((output.$defs ?? {}) as Record<string, Json>) };
    const outputId = output.id as string | undefined;
    if (outputId) {
      const top = { ...output };
      delete top.$defs;
      delete top.$schema;
      delete top.id;
      outputDefs[outputId] = top;
    }
    const differs = new Set(Object.keys(inputDefs).filter((k) => JSON.stringify(inputDefs[k]) !== JSON.stringify(outputDefs[k] ?? null)));
    for (let grew = true; grew;) {
      grew = false;
      for (const [k, def] of Object.entries(inputDefs)) {
        if (differs.has(k)) continue;
        const text = JSON.stringify(def);
        if ([...differs].some((d) => text.includes(`"#/$defs/${d}"`))) {
          differs.add(k);
          grew = true;
        }
      }
    }
    return differs;
  }

  private rewrite(schema: Json, renamed: Set<string> = new Set()): Json {
    const text = JSON.stringify(schema).replace(/"#\/\$defs\/([^"]+)"/g, (_, id: string) =>
      JSON.stringify(`#/components/schemas/${renamed.has(id) ? `${id}Input` : id}`),
    );
    return JSON.parse(text) as Json;
  }
}

const RANGE_OPS = { gte: "At least", gt: "Greater than", lte: "At most", lt: "Less than" };

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
    // `type=API,SaaS`: a comma list (form style, not exploded) matches any of the values; `[ne]` excludes them.
    const list = { type: "array", items: schema, minItems: 1, maxItems: 100 };
    params.push({ ...p(field, "Exact match; comma-separated values match any", list), style: "form", explode: false });
    params.push({ ...p(`${field}[ne]`, "Not equal; comma-separated values exclude each", list), style: "form", explode: false });
    if (def.type !== "boolean" && def.type !== "enum") {
      for (const [op, words] of Object.entries(RANGE_OPS)) params.push(p(`${field}[${op}]`, `${words} this value`, schema));
    }
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
  sink.convert(errorEnvelopeSchema(), "output");
  const metaRef = sink.convert(Meta, "output");
  const paginationRef = sink.convert(Pagination, "output");
  const paths: Record<string, Record<string, Json>> = {};
  const headerComponents: Record<string, Json> = {};
  const headerRef = (name: string, doc: HeaderDoc) => {
    headerComponents[name] ??= { description: doc.description, schema: doc.schema };
    return { $ref: `#/components/headers/${name}` };
  };

  for (const route of routes) {
    const steps = API_PIPELINE_DOCS.filter((d) => d.appliesTo(route));
    /** The headers the route's steps put on an answer with this status. */
    const headersFor = (status: number): Json | undefined => {
      const out: Json = {};
      for (const d of steps) {
        for (const [name, h] of Object.entries(d.headers ?? {})) {
          const on = h.on;
          const applies = on === "all" || (on === "success" ? status < 300 : on === "error" ? status >= 400 : on.includes(status));
          // A 204 has no body, and no Content-Type; everything else the step lists applies.
          if (applies) out[name] = headerRef(name, h);
        }
      }
      return Object.keys(out).length ? out : undefined;
    };

    const parameters: Json[] = [];
    if (route.params) {
      for (const name of Object.keys((route.params as z.ZodObject).shape)) {
        parameters.push({ name, in: "path", required: true, description: `The resource's ${name}`, schema: { type: "string" } });
      }
    }
    if (route.collection) parameters.push(...collectionParameters(route.collection));
    else if (route.query) {
      for (const [name, s] of Object.entries((route.query as z.ZodObject).shape)) {
        const schema = s as z.ZodType;
        parameters.push({
          name,
          in: "query",
          required: !schema.safeParse(undefined).success,
          ...(schema.description ? { description: schema.description } : {}),
          schema: sink.convert(schema, "input"),
        });
      }
    }
    const idempotent = route.method === "POST" && route.auth !== "none";
    if (idempotent) {
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
    const json = (schema: Json) => ({ "application/json": { schema } });
    if (r.kind === "single") {
      const content = json({
        type: "object",
        required: ["data", "meta"],
        properties: { data: sink.convert(r.schema, "output"), meta: metaRef },
      });
      const data = sink.convert(r.schema, "output");
      const withFields = !!route.query && "fields" in (route.query as z.ZodObject).shape;
      responses[String(r.status)] = {
        description: route.summary,
        headers: headersFor(r.status),
        content,
        // `fields=` answers a partial object: a client validating such an answer uses this schema instead.
        ...(withFields
          ? {
              "x-partial-schema": {
                type: "object",
                required: ["data", "meta"],
                properties: { data: partialOf(data, sink.components), meta: metaRef },
              },
            }
          : {}),
      };
      // A replay (same Idempotency-Key) answers 200 with the body the first request got.
      if (idempotent && r.status === 201) {
        responses["200"] = {
          description: "Replayed result of an earlier request with the same Idempotency-Key (header Idempotent-Replayed: true)",
          headers: headersFor(200),
          content,
        };
      }
    } else if (r.kind === "collection") {
      const items = sink.convert(r.schema, "output");
      const page = (item: Json) => ({
        type: "object",
        required: ["data", "pagination", "meta"],
        properties: { data: { type: "array", items: item }, pagination: paginationRef, meta: metaRef },
      });
      responses["200"] = {
        description: route.summary,
        headers: headersFor(200),
        content: json(page(items)),
        // `fields=` answers partial items: a client validating such a page uses this schema instead.
        ...(route.collection?.fields.length ? { "x-partial-schema": page(partialOf(items, sink.components)) } : {}),
      };
    } else if (r.kind === "empty") {
      responses["204"] = { description: "Done; no content", headers: headersFor(204) };
    } else if (r.kind === "text") {
      responses["200"] = {
        description: r.description,
        headers: headersFor(200),
        content: { [r.contentType.split(";")[0]]: { schema: { type: "string" } } },
      };
    } else {
      responses["200"] = { description: r.description, headers: headersFor(200), content: json({ type: "object" }) };
    }

    const statuses = new Map<number, string>();
    for (const d of steps) for (const [code, text] of Object.entries(d.statuses ?? {})) statuses.set(Number(code), text);
    for (const [code, text] of Object.entries(route.statuses ?? {})) statuses.set(Number(code), text);
    for (const status of [...statuses.keys()].sort()) {
      const codes = ERROR_CATALOG.filter((e) => e.status === status).map((e) => e.code);
      responses[String(status)] = {
        description: `${statuses.get(status)}.${codes.length ? ` Codes: ${codes.join(", ")}.` : ""}`,
        headers: headersFor(status),
        content: json(envelope),
      };
    }
    for (const res of Object.values(responses)) if (!res.headers) delete res.headers;

    const operation: Json = {
      operationId: `${route.method.toLowerCase()}${route.path
        .replace(/\{(\w+)\}/g, "By_$1")
        .split(/[/_-]/)
        .filter(Boolean)
        .map((s) => s[0].toUpperCase() + s.slice(1))
        .join("")}`,
      summary: route.summary,
      description: describeOperation(route),
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
    if (route.body) {
      const schema = sink.convert(route.body, "input");
      // An absent body is read as {}: a body whose every field is optional need not be sent at all.
      operation.requestBody = { required: !route.body.safeParse({}).success, content: json(schema) };
    }
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
  }

  let origin = "";
  try {
    origin = new URL(serverUrl).origin;
  } catch {
    /* a relative server URL */
  }
  return sink.settle({
    openapi: "3.1.0",
    info: {
      title: "Developer Platform API",
      version: "v1",
      description:
        "Products, prices, features and API keys of a developer platform. Authenticate with `Authorization: Bearer sk_test_...` (or `?api_key=`). Test keys see only test data, live keys only live data.",
      contact: { name: "Developer Platform support", url: `${origin}/docs` },
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }, { apiKeyQuery: [] }, { oauth2: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: `${name} endpoints` })),
    paths,
    components: {
      schemas: sink.components,
      headers: headerComponents,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key: sk_test_... or sk_live_..." },
        apiKeyQuery: { type: "apiKey", in: "query", name: "api_key", description: "Less secure: keys in URLs end up in logs" },
        oauth2: oauthScheme(serverUrl, routes),
      },
    },
  });
}

/** The error object: the fields every error has, and each catalog code's own (all optional: they vary by code). */
function errorEnvelopeSchema() {
  const extra: Record<string, z.ZodType> = {};
  const usedBy: Record<string, string[]> = {};
  for (const e of ERROR_CATALOG) {
    for (const [name, schema] of Object.entries(e.fields ?? {})) {
      extra[name] ??= schema;
      (usedBy[name] ??= []).push(e.code);
    }
  }
  const fields = Object.fromEntries(
    Object.entries(extra).map(([name, schema]) => [
      name,
      schema.optional().meta({ description: `${schema.description ?? name}. On ${usedBy[name].join(", ")}.` }),
    ]),
  );
  const error = ErrorObject.extend(fields).meta({ id: "Error" });
  return z.object({ error, meta: Meta }).meta({ id: "ErrorEnvelope" });
}

/** The item schema with only `id` required: what `fields=` answers. */
function partialOf(item: Json, components: Record<string, Json>): Json {
  const ref = typeof item.$ref === "string" ? item.$ref.split("/").pop()! : undefined;
  const full = ref ? components[ref] : item;
  if (!full || full.type !== "object") return item;
  const required = Array.isArray(full.required) && full.required.includes("id") ? ["id"] : [];
  return { ...full, required };
}

/** What an operation does, who may call it, and what it sets off. */
function describeOperation(route: AnyRoute): string {
  const parts = [`${route.summary}.`];
  if (route.auth === "none") parts.push("Public: no key needed.");
  else
    parts.push(
      route.scope
        ? `Needs the \`${route.scope}\` scope: an API key holding it, or an OAuth access token granted it.`
        : "Any valid API key or OAuth access token may call it.",
    );
  if (route.method === "GET") parts.push("Reads only; counts against the key's rate limit and the project's quota.");
  else {
    parts.push("Writes an audit-log entry and may emit webhook events (see /v1/events) for the change.");
    if (route.method === "POST") parts.push("Send an `Idempotency-Key` header to make a retry safe.");
  }
  if (route.collection) parts.push("Paginated with limit/offset or cursor; filter, sort, `fields` and `expand` as listed.");
  return parts.join(" ");
}

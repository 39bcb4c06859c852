import { z } from "zod";
import { cronProblem } from "@/lib/automation/cron";

// Building blocks of the automation schemas: the document guard (no prototype keys, bounded nesting), free-form
// JSON, text, number and id fields, and the shapes derived from each kind's own (update body, stored record).

/** Keys refused anywhere in a document: they change an object's prototype when code assigns or merges them. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
/** Levels of nesting allowed in a document (the document itself is level 1). */
export const MAX_JSON_DEPTH = 32;

type Path = (string | number)[];
interface Problem {
  path: Path;
  message: string;
}

const DEEP = (maxDepth: number) =>
  `nests deeper than ${maxDepth} levels; flatten the value (documents allow at most ${maxDepth} levels of objects and arrays)`;

/** The problem with a scalar, or null; objects and arrays are walked by `walk`. */
function scalarProblem(v: unknown): Problem | null {
  if (typeof v === "number") return Number.isFinite(v) ? null : { path: [], message: "must be a finite number" };
  if (v === null || typeof v === "string" || typeof v === "boolean") return null;
  return { path: [], message: `must be a JSON value, not ${v === undefined ? "undefined" : typeof v}` };
}

/**
 * Walks an object or array. Recursion stops at `maxDepth`, so the stack stays shallow whatever the input; the path
 * is built only on failure. Hot (every request body): no closures, scalars checked inline.
 */
function walk(v: object, depth: number, maxDepth: number): Problem | null {
  if (depth > maxDepth) return { path: [], message: DEEP(maxDepth) };
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const child: unknown = v[i];
      const p =
        typeof child === "object" && child !== null
          ? walk(child, depth + 1, maxDepth)
          : typeof child === "string"
            ? null
            : scalarProblem(child);
      if (p) {
        p.path.unshift(i);
        return p;
      }
    }
    return null;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return { path: [], message: "must be a plain JSON object" };
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === "__proto__" || key === "constructor" || key === "prototype") {
      return { path: [key], message: `'${key}' is not allowed as a key (it would reach the prototype of the objects that read it)` };
    }
    const child: unknown = (v as Record<string, unknown>)[key];
    if (child === undefined) continue; // an absent field, as a direct caller may write it
    const p =
      typeof child === "object" && child !== null
        ? walk(child, depth + 1, maxDepth)
        : typeof child === "string"
          ? null
          : scalarProblem(child);
    if (p) {
      p.path.unshift(key);
      return p;
    }
  }
  return null;
}

/**
 * The first reason `value` is not plain, safe JSON: a forbidden key, nesting deeper than `maxDepth`, or a value
 * JSON cannot carry (a direct caller of the schemas may pass functions or NaN). Safe at any depth of input.
 */
export function jsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): Problem | null {
  return typeof value === "object" && value !== null ? walk(value, 1, maxDepth) : scalarProblem(value);
}

/**
 * A whole document (or update body) checked as raw input before zod parses it: one walk refuses prototype keys
 * anywhere (zod would silently drop a `__proto__` from records and open objects; a 400 says why) and nesting
 * deeper than MAX_JSON_DEPTH, so no later step recurses without end. The inner schemas then need no guard.
 */
export function document<T extends z.ZodType>(inner: T, maxDepth = MAX_JSON_DEPTH) {
  return z.preprocess((value, ctx) => {
    const problem = jsonProblem(value, maxDepth);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: problem.path, input: value });
    return value;
  }, inner);
}

// Each field below costs one zod check, not two or three: zod runs every check on its own (about 65 ns each, more
// than the type test itself), and a workflow of 50 steps holds hundreds of fields (npm run bench:schemas).

/** Required text, not blank, at most `max` characters; stored as given. */
export const text = (max = 200) =>
  z
    .string()
    .superRefine((s, ctx) => {
      if (s.length > max) ctx.addIssue({ code: "custom", message: `must be at most ${max} characters`, input: s });
      else if (!NOT_BLANK.test(s)) ctx.addIssue({ code: "custom", message: "must not be empty", input: s });
    })
    .meta({ minLength: 1, maxLength: max });
const NOT_BLANK = /\S/;
/** Text that may be empty, such as a description. */
export const prose = (max = 10_000) => z.string().max(max, `must be at most ${max} characters`);
/** A condition, transform or filter written in the workflow's expression language; stored as given. */
export const expression = (description = "An expression, evaluated by the runtime") => text(2_000).meta({ description });
export const names = (max = 100) => z.array(text(200)).max(max);

/** A whole number from `min` to `max`. */
export const intIn = (min: number, max: number, message = `must be a whole number from ${min} to ${max}`) =>
  z
    .number()
    .superRefine((n, ctx) => {
      if (!Number.isInteger(n) || n < min || n > max) ctx.addIssue({ code: "custom", message, input: n });
    })
    .meta({ type: "integer", minimum: min, maximum: max });
export const positiveInt = (max = 2_147_483_647) => intIn(1, max);

/** Any JSON value (an execution's input and output, a parameter's default). */
export const jsonValue = () => z.unknown().meta({ description: "Any JSON value" });
// Maps are checked in place rather than with z.record, which copies every entry and costs about 1 µs a map. They
// are returned as given: document() has already refused prototype keys and deep nesting in the raw input.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const objectError = (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : "must be a JSON object");

/** A free-form JSON object (toolConfig, variables, metadata, a JSON Schema). */
export const jsonObject = (description = "A free-form JSON object") =>
  z.custom<Record<string, unknown>>(isObject, { error: objectError }).meta({ type: "object", additionalProperties: {}, description });

/** Names to text (step input, environment variables, headers): at most 100 entries; names 1-200 characters. */
export const stringMap = (description: string, keyPattern?: RegExp, keyMessage = "is not an allowed name") =>
  z
    .custom<Record<string, string>>(isObject, { error: objectError })
    .superRefine((map, ctx) => {
      let count = 0;
      for (const key in map) {
        if (++count > 100) {
          ctx.addIssue({ code: "custom", message: "holds at most 100 entries", input: map });
          return;
        }
        const value = map[key];
        if (key.length === 0 || key.length > 200 || (keyPattern && !keyPattern.test(key))) {
          ctx.addIssue({ code: "custom", path: [key], message: keyPattern ? keyMessage : "names must be 1 to 200 characters", input: key });
        } else if (typeof value !== "string") {
          ctx.addIssue({ code: "custom", path: [key], message: "must be a string", input: value });
        } else if (value.length > 32_768)
          ctx.addIssue({ code: "custom", path: [key], message: "must be at most 32768 characters", input: value });
      }
    })
    .meta({ type: "object", additionalProperties: { type: "string", maxLength: 32_768 }, maxProperties: 100, description });

export const isoDateTime = () => z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z" });
export const httpUrl = () => z.url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://example.com/hook" }).max(2_048);

export const RateLimit = z
  .strictObject({
    requests: positiveInt().meta({ description: "Requests allowed per window" }),
    window: positiveInt(31_536_000).meta({ description: "Window length in seconds" }),
  })
  .meta({ id: "RateLimit" });

const zones = new Map<string, boolean>();
/** An IANA time zone the runtime knows (UTC, Europe/Berlin, ...). */
export function isTimeZone(name: string): boolean {
  if (name.length > 64) return false;
  let ok = zones.get(name);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
      ok = true;
    } catch {
      ok = false;
    }
    if (zones.size < 1_000) zones.set(name, ok);
  }
  return ok;
}

export const timeZone = () =>
  z
    .string()
    .refine(isTimeZone, "must be an IANA time zone such as UTC or Europe/Berlin")
    .meta({ description: "IANA time zone", example: "Europe/Berlin" });

export const cron = () =>
  z
    .string()
    .max(200)
    .superRefine((value, ctx) => {
      const problem = cronProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: `not a valid cron expression: ${problem}`, input: value });
    })
    .meta({
      description: "Five-field cron expression: minute hour day-of-month month day-of-week (or @daily, @hourly, ...)",
      example: "*/15 9-17 * * MON-FRI",
    });

/** `$id`: the record's id, assigned by the server. */
export const resourceId = () =>
  z
    .string()
    .max(64)
    .optional()
    .meta({ readOnly: true, description: "The record's id (agt_…, wf_…, …), assigned by the server; omit it when creating" });

/** `$type`: the kind's name; optional in a body, and when present it must name the kind. */
export const typeTag = <K extends string>(kind: K) =>
  z
    .literal(kind, {
      error: (issue) =>
        `must be '${kind}' on this resource${typeof issue.input === "string" ? ` (got '${issue.input.slice(0, 40)}')` : ""}`,
    })
    .optional()
    .meta({ description: `Always '${kind}'; may be omitted in a request body` });

// ---- derived shapes ----

type Shape = Record<string, z.ZodType>;

/** A field's schema without its optional/default wrapper. */
function bare(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodPrefault) s = s._zod.def.innerType as z.ZodType;
  return s;
}

const optionalIn = (schema: z.ZodType) =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault;

/**
 * The body of a PATCH: every field optional and without defaults (an absent field is left as it is). A field the
 * document may omit may also be `null`, which removes it (and brings back its default, if it has one). The
 * merged document is then validated whole, so cross-field rules hold after every update.
 */
export function patchShape(shape: Shape, opts: { notNull?: readonly string[]; omit?: readonly string[] } = {}): Shape {
  const out: Shape = {};
  for (const [key, schema] of Object.entries(shape)) {
    if (key === "$id" || opts.omit?.includes(key)) continue;
    const clearable = optionalIn(schema) && key !== "$type" && !opts.notNull?.includes(key);
    out[key] = clearable ? bare(schema).nullable().optional() : bare(schema).optional();
  }
  return out;
}

/**
 * A discriminated union on `type` whose missing or unknown `type` is reported as such (MISSING_REQUIRED_FIELD or
 * INVALID_TYPE naming the allowed values) instead of zod's generic "invalid discriminator".
 */
export function byType<const V extends readonly [z.ZodObject, ...z.ZodObject[]]>(types: readonly string[], variants: V, what: string) {
  return z.preprocess(
    (value, ctx) => {
      if (value && typeof value === "object" && !Array.isArray(value)) {
        const type = Object.hasOwn(value, "type") ? (value as { type: unknown }).type : undefined;
        if (type === undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["type"],
            message: `A ${what} needs a 'type': one of ${types.join(", ")}.`,
            params: { code: "MISSING_REQUIRED_FIELD" },
            input: value,
          });
        } else if (typeof type !== "string" || !types.includes(type)) {
          const shown = typeof type === "string" ? `'${type.slice(0, 40)}'` : JSON.stringify(type)?.slice(0, 40);
          ctx.addIssue({
            code: "custom",
            path: ["type"],
            message: `${shown} is not a ${what} type; use one of: ${types.join(", ")}.`,
            params: { code: "INVALID_TYPE" },
            input: value,
          });
        }
      }
      return value;
    },
    z.discriminatedUnion("type", variants),
  );
}

/** The stored record: the document with defaults applied, plus id, `$id`, `$type`, environment and timestamps. */
export function recordShape(shape: Shape, kind: string, typed: boolean, example: string): Shape {
  const { $id: _$id, $type: _$type, id: _id, ...fields } = shape;
  return {
    id: z.string().meta({ example, description: "The record's id; the same as $id" }),
    $id: z.string().meta({ example }),
    ...(typed ? { $type: z.literal(kind) } : {}),
    ...fields,
    environment: z.enum(["test", "production"]),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
  };
}

/** Adds one issue per repeated value of `values` (at `path(i)` of the repeat). */
export function uniqueCheck(ctx: z.RefinementCtx, values: readonly string[], path: (i: number) => Path, what: string): void {
  const seen = new Map<string, number>();
  values.forEach((v, i) => {
    const first = seen.get(v);
    if (first !== undefined)
      ctx.addIssue({
        code: "custom",
        path: path(i),
        message: `repeats ${what} '${String(v).slice(0, 100)}' (first at index ${first})`,
        input: v,
      });
    else seen.set(v, i);
  });
}

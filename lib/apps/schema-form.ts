// The editor's form, derived from an app type's JSON Schema (GET /v1/apps/schemas/{type}) and not written per type:
// each property becomes one field of a kind the generic renderer knows (components/app-editor/schema-fields.tsx).
// Labels come from the field names ("showAPIKeys" → "Show API keys") and the schema's descriptions; defaults are
// kept so the form can show them. A shape the renderer has no control for (the recursive navigation) becomes a JSON
// field, so nothing the schema allows is out of reach.

type Json = Record<string, unknown>;

interface FieldBase {
  /** Dotted path of the value in the app body: `config.showWebhooks`, `views.usage.periods`. */
  path: string;
  /** The property's own name. */
  name: string;
  label: string;
  description?: string;
  required: boolean;
  default?: unknown;
}

export type FormField =
  | (FieldBase & { kind: "boolean" })
  | (FieldBase & { kind: "enum"; options: string[] })
  | (FieldBase & { kind: "string"; minLength?: number; maxLength?: number; pattern?: string; multiline: boolean })
  | (FieldBase & { kind: "number"; integer: boolean; minimum?: number; maximum?: number })
  | (FieldBase & { kind: "multi-enum"; options: string[]; minItems?: number })
  | (FieldBase & { kind: "string-list"; minItems?: number })
  | (FieldBase & { kind: "group"; fields: FormField[] })
  | (FieldBase & { kind: "json" });

export type FieldKind = FormField["kind"];

const ACRONYMS: Record<string, string> = {
  api: "API",
  apis: "APIs",
  url: "URL",
  urls: "URLs",
  id: "ID",
  ids: "IDs",
  sla: "SLA",
  kb: "KB",
  mcp: "MCP",
  crm: "CRM",
  ui: "UI",
  ai: "AI",
  sso: "SSO",
};

/** "showAPIKeys" → "Show API keys", "retryConfig" → "Retry config", "api-keys" → "API keys". */
export function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  if (!words.length) return name;
  const [first, ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The schema `$ref` points at (only local `#/$defs/…` references), or the node itself. */
function resolve(node: Json, root: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return node;
  let target: unknown = root;
  for (const part of ref.slice(2).split("/")) target = isObject(target) ? target[part] : undefined;
  return isObject(target) ? { ...target, ...Object.fromEntries(Object.entries(node).filter(([k]) => k !== "$ref")) } : node;
}

const num = (v: unknown) => (typeof v === "number" ? v : undefined);

/** One property's field; `null` for a constant (the app's `type`), which nobody edits. */
export function fieldOf(name: string, node: Json, root: Json, parentPath = "", required = false): FormField | null {
  const schema = resolve(node, root);
  const path = parentPath ? `${parentPath}.${name}` : name;
  const base: FieldBase = {
    path,
    name,
    label: labelOf(name),
    required,
    ...(typeof schema.description === "string" ? { description: schema.description } : {}),
    ...("default" in schema ? { default: schema.default } : {}),
  };
  if ("const" in schema) return null;
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string"))
    return { ...base, kind: "enum", options: schema.enum as string[] };
  switch (schema.type) {
    case "boolean":
      return { ...base, kind: "boolean" };
    case "string":
      return {
        ...base,
        kind: "string",
        minLength: num(schema.minLength),
        maxLength: num(schema.maxLength),
        ...(typeof schema.pattern === "string" ? { pattern: schema.pattern } : {}),
        multiline: (num(schema.maxLength) ?? 0) > 500,
      };
    case "integer":
    case "number":
      return { ...base, kind: "number", integer: schema.type === "integer", minimum: num(schema.minimum), maximum: num(schema.maximum) };
    case "array": {
      const items = isObject(schema.items) ? resolve(schema.items, root) : {};
      const minItems = num(schema.minItems);
      if (Array.isArray(items.enum) && items.enum.every((v) => typeof v === "string"))
        return { ...base, kind: "multi-enum", options: items.enum as string[], minItems };
      if (items.type === "string" && !items.enum) return { ...base, kind: "string-list", minItems };
      return { ...base, kind: "json" };
    }
    case "object": {
      if (!isObject(schema.properties)) return { ...base, kind: "json" };
      return { ...base, kind: "group", fields: fieldsOf(schema, root, path) };
    }
    default:
      return { ...base, kind: "json" };
  }
}

/** The fields of an object schema, in the schema's order; `omit` leaves out top-level names another control owns. */
export function fieldsOf(schema: Json, root: Json = schema, parentPath = "", omit: readonly string[] = []): FormField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: FormField[] = [];
  for (const [name, node] of Object.entries(properties)) {
    if (!parentPath && omit.includes(name)) continue;
    if (!isObject(node)) continue;
    const field = fieldOf(name, node, root, parentPath, required.has(name));
    if (field) out.push(field);
  }
  return out;
}

/** Every field's path, groups included: where an error from the server can be shown. */
export function fieldPaths(fields: FormField[]): string[] {
  return fields.flatMap((f) => (f.kind === "group" ? [f.path, ...fieldPaths(f.fields)] : [f.path]));
}

/**
 * The field an error's path belongs to: the longest field path that is the error's path or a prefix of it
 * (`views.usage.periods[2]` → `views.usage.periods`), or null when no field shows it.
 */
export function fieldForError(errorPath: string | undefined, paths: readonly string[]): string | null {
  if (!errorPath) return null;
  let best: string | null = null;
  for (const p of paths) {
    const covers = errorPath === p || errorPath.startsWith(`${p}.`) || errorPath.startsWith(`${p}[`);
    if (covers && (!best || p.length > best.length)) best = p;
  }
  return best;
}

/** The value at a dotted path. */
export function valueAt(values: unknown, path: string): unknown {
  let v: unknown = values;
  for (const part of path.split(".")) v = isObject(v) ? v[part] : undefined;
  return v;
}

/** A copy of `values` with the value at `path` set (`undefined` removes it), the objects on the way copied too. */
export function withValueAt<T extends Json>(values: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split(".");
  const out: Json = { ...values };
  if (rest.length) out[head] = withValueAt(isObject(values[head]) ? (values[head] as Json) : {}, rest.join("."), value);
  else if (value === undefined) delete out[head];
  else out[head] = value;
  return out as T;
}

/** What a list field shows in its text box: "a, b, c"; and back, blanks dropped. */
export const listText = (value: unknown) => (Array.isArray(value) ? value.join(", ") : "");
export const parseList = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** A default as a person reads it next to a field: "on", "90", "hour, day", "none". */
export function defaultText(value: unknown): string {
  if (typeof value === "boolean") return value ? "on" : "off";
  if (Array.isArray(value)) return value.length ? value.join(", ") : "none";
  if (isObject(value)) return Object.keys(value).length ? JSON.stringify(value) : "none";
  return String(value);
}

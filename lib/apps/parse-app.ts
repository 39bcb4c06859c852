import { ApiError } from "@/lib/http/errors";
import { formatPath, zodToApiError } from "@/lib/http/zod-errors";
import { APP_TYPES, type AppConfig, type AppType } from "./app-types";
import { DEVELOPER_VIEW_NAMES } from "./developer-app";

// An app's definition (BaseApp fields, `config`, a Developer app's `views`) checked by its type's schema, with the
// spec's defaults applied. The type schemas are plain zod objects (they drop what they do not know), so the fields
// a client sent that the parsed app lacks are the unknown ones: each is a 400 naming its path, as a misspelt
// switch (`config.showDoc`) would otherwise be dropped without a word.

type Json = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The path of the first field of `input` that `parsed` does not have, or null. */
export function firstUnknownField(input: unknown, parsed: unknown, path: PropertyKey[] = []): string | null {
  if (isPlainObject(input) && isPlainObject(parsed)) {
    for (const [key, value] of Object.entries(input)) {
      if (!(key in parsed)) return formatPath([...path, key]);
      const inner = firstUnknownField(value, parsed[key], [...path, key]);
      if (inner) return inner;
    }
  } else if (Array.isArray(input) && Array.isArray(parsed)) {
    for (let i = 0; i < input.length; i++) {
      const inner = firstUnknownField(input[i], parsed[i], [...path, i]);
      if (inner) return inner;
    }
  }
  return null;
}

/** The views an app of this type can show: its default views; a Developer app also its seven portal views. */
export function knownViews(type: AppType): string[] {
  const defaults = APP_TYPES[type].defaultViews;
  return type === "Developer" ? [...new Set([...defaults, ...DEVELOPER_VIEW_NAMES])] : defaults;
}

export function knownPanels(type: AppType): string[] {
  return APP_TYPES[type].defaultPanels;
}

function unknownName(field: string, value: string, allowed: string[], what: string): ApiError {
  return new ApiError({
    status: 400,
    type: "validation_error",
    code: "INVALID_FIELD",
    field,
    message: /^[A-Za-z0-9 _-]{1,60}$/.test(value) ? `Unknown ${what} '${value}'.` : `Unknown ${what}.`,
    suggestion: `Use one of: ${allowed.join(", ")}.`,
  });
}

/** The app's part of a create or update body → the parsed app of `type`, or a 400 naming the field. */
export function parseAppDefinition(type: AppType, input: Json): AppConfig {
  const result = APP_TYPES[type].schema.safeParse({ ...input, type }, { reportInput: true });
  if (!result.success) throw zodToApiError(result.error, "body");
  const unknown = firstUnknownField(input, result.data);
  if (unknown)
    throw new ApiError({
      status: 400,
      type: "validation_error",
      code: "INVALID_FIELD",
      field: unknown,
      message: `Unknown field '${unknown}' for a ${type} app.`,
      suggestion: `GET /v1/apps/schemas/${type} lists every field of a ${type} app.`,
    });
  const app = result.data;
  const views = knownViews(type);
  app.defaultViews.forEach((v, i) => {
    if (!views.includes(v)) throw unknownName(`defaultViews[${i}]`, v, views, "view");
  });
  const panels = knownPanels(type);
  app.defaultPanels.forEach((p, i) => {
    if (!panels.includes(p)) throw unknownName(`defaultPanels[${i}]`, p, panels, "panel");
  });
  return app;
}

import type { ZodError } from "zod";

// One place that turns a validation failure (a zod error, an ApiError, or the error a server action answered
// with) into what a form shows: a plain-words message per field. zod's own wording ("Too small: expected string
// to have >=1 characters", "Invalid input: expected number, received NaN at path …") never reaches a user.

export type FieldErrors = Record<string, string>;

/** The error a portal action answers with (lib/portal/run-action.ts). */
export interface FormError {
  message: string;
  field?: string;
  /** The API's full path of the field (`config.periods[2]`), for forms whose fields are nested (the app editor). */
  path?: string;
  code?: string;
  fields?: FieldErrors;
}

type Issue = ZodError["issues"][number];

/** zod's built-in messages; anything else was written by a schema's author and is kept. */
const ZOD_WORDING = /^(Too (small|big)|Invalid|Unrecognized key|Expected|Number must|String must|Required$)/;
/** How the API's validation errors quote zod: "Invalid field 'name': Too small: …". */
const API_PREFIX = /^Invalid (field|parameter) '[^']*': /;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The form field an issue or an API error is about: the first part of its path (`redirectUris[0]` → `redirectUris`). */
export function topField(path: string | readonly PropertyKey[] | undefined | null): string {
  if (path === undefined || path === null) return "form";
  const first = typeof path === "string" ? path.split(/[.[]/)[0] : path.length ? String(path[0]) : "";
  return first || "form";
}

/** A sentence a person understands for one zod issue. */
export function issueMessage(issue: Issue): string {
  if (!ZOD_WORDING.test(issue.message)) return sentence(issue.message);
  const raw = issue as Issue & Record<string, unknown>;
  switch (issue.code) {
    case "invalid_type": {
      if (("input" in raw && raw.input === undefined) || / received undefined$/.test(issue.message)) return "This field is required.";
      if (raw.expected === "int") return "Enter a whole number.";
      if (raw.expected === "number") return "Enter a number.";
      if (raw.expected === "array") return "Choose at least one.";
      return "Enter a valid value.";
    }
    case "too_small": {
      const min = Number(raw.minimum);
      const inclusive = raw.inclusive !== false;
      if (raw.origin === "string") return min <= 1 ? "This field is required." : `Use at least ${plural(min, "character", "characters")}.`;
      if (raw.origin === "array" || raw.origin === "set") return min <= 1 ? "Choose at least one." : `Choose at least ${min}.`;
      return inclusive ? `Enter a number of at least ${min}.` : `Enter a number greater than ${min}.`;
    }
    case "too_big": {
      const max = Number(raw.maximum);
      const inclusive = raw.inclusive !== false;
      if (raw.origin === "string") return `Use at most ${plural(max, "character", "characters")}.`;
      if (raw.origin === "array" || raw.origin === "set") return `Choose at most ${max}.`;
      return inclusive ? `Enter a number no greater than ${max}.` : `Enter a number less than ${max}.`;
    }
    case "invalid_format": {
      const format = String(raw.format ?? "");
      if (format === "email") return "Enter a valid e-mail address.";
      if (format === "url") return "Enter a full URL, such as https://example.com/hooks.";
      if (format.startsWith("date") || format === "time") return "Enter a valid date and time.";
      return "Enter a value in the expected format.";
    }
    case "invalid_value":
      return `Choose one of: ${(raw.values as unknown[]).map(String).join(", ")}.`;
    case "not_multiple_of":
      return `Enter a multiple of ${String(raw.divisor)}.`;
    case "unrecognized_keys":
      return `This form sent a field the server does not accept (${(raw.keys as string[]).join(", ")}).`;
    default:
      return "Enter a valid value.";
  }
}

/** An authored message as a sentence: capitalised, ending with a full stop. */
function sentence(text: string): string {
  const t = text.trim();
  if (!t) return "Enter a valid value.";
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** An API error message with zod's wording replaced (the API keeps the field's name in its message; a form shows it next to the field). */
export function humanApiMessage(message: string): string {
  const rest = message.replace(API_PREFIX, "");
  if (rest === message && !ZOD_WORDING.test(message)) return message;
  if (!ZOD_WORDING.test(rest)) return sentence(rest);
  if (/received undefined$/.test(rest) || /expected string to have >=1 characters$/.test(rest)) return "This field is required.";
  const number = /expected number to be (>=|>|<=|<)(-?[\d.]+)$/.exec(rest);
  if (number) {
    const words = { ">=": "of at least", ">": "greater than", "<=": "no greater than", "<": "less than" }[number[1]];
    return `Enter a number ${words} ${number[2]}.`;
  }
  const text = /expected string to have (>=|<=)(\d+) characters$/.exec(rest);
  if (text) return `Use ${text[1] === ">=" ? "at least" : "at most"} ${plural(Number(text[2]), "character", "characters")}.`;
  if (/expected int\b/.test(rest)) return "Enter a whole number.";
  if (/expected number\b/.test(rest)) return "Enter a number.";
  if (/^Invalid email/.test(rest)) return "Enter a valid e-mail address.";
  if (/^Invalid URL/.test(rest)) return "Enter a full URL, such as https://example.com/hooks.";
  return "Enter a valid value.";
}

/** Every field's first problem, in words. */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) out[topField(issue.path)] ??= issueMessage(issue);
  return out;
}

function isZodError(e: unknown): e is ZodError {
  return !!e && typeof e === "object" && Array.isArray((e as ZodError).issues) && (e as Error).name === "ZodError";
}

/**
 * {field → message} for a form from whatever failed: a ZodError, an ApiError (or anything with `message` and
 * `field`, such as an action's answer). A problem without a field is under `form`.
 */
export function formErrors(error: unknown): FieldErrors {
  if (!error) return {};
  if (isZodError(error)) return zodFieldErrors(error);
  const e = error as Partial<FormError>;
  if (e.fields && Object.keys(e.fields).length) return { ...e.fields };
  const message = humanApiMessage(typeof e.message === "string" && e.message ? e.message : "Something went wrong. Try again.");
  return { [e.field ? topField(e.field) : "form"]: message };
}

/**
 * The problems a form shows next to its own fields, and the rest as one message for the whole form (a field the
 * form does not show, e.g. one the server checks, is not lost).
 */
export function splitFormErrors(errors: FieldErrors, shown: readonly string[]): { fields: FieldErrors; form: string | null } {
  const fields: FieldErrors = {};
  const rest: string[] = [];
  for (const [field, message] of Object.entries(errors)) {
    if (shown.includes(field)) fields[field] = message;
    else rest.push(message);
  }
  return { fields, form: rest.length ? rest.join(" ") : null };
}

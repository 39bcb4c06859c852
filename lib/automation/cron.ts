// A five-field cron expression, the classic (Vixie) form: minute hour day-of-month month day-of-week.
// Each field is `*` or a comma-separated list of values, ranges (`1-5`) and steps (`*/15`, `10-50/10`, `5/15`);
// months take JAN-DEC and days of the week SUN-SAT (0 and 7 are both Sunday). The shorthands @yearly,
// @annually, @monthly, @weekly, @daily, @midnight and @hourly are accepted. Used by function schedules and
// schedule triggers; no dependency, and a message that says which field is wrong and why.

export interface CronField {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

export const CRON_FIELDS: readonly CronField[] = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day-of-month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12, names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"] },
  // 7 is Sunday too; names start at 0.
  { name: "day-of-week", min: 0, max: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] },
];

export const CRON_MACROS: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

export interface ParsedCron {
  minute: number[];
  hour: number[];
  dayOfMonth: number[];
  month: number[];
  /** 0-6, Sunday 0 (a 7 is folded into 0). */
  dayOfWeek: number[];
  /** Whether the day fields were `*`: cron ORs the two day fields only when both are restricted. */
  dayOfMonthAny: boolean;
  dayOfWeekAny: boolean;
}

export type CronResult = { ok: true; value: ParsedCron } | { ok: false; message: string };

class CronError extends Error {}

const MAX_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function value(raw: string, field: CronField): number {
  if (/^\d{1,2}$/.test(raw)) {
    const n = Number(raw);
    if (n < field.min || n > field.max) throw new CronError(`${field.name} value ${n} is out of range ${field.min}-${field.max}`);
    return n;
  }
  const index = field.names?.indexOf(raw.toUpperCase()) ?? -1;
  if (index >= 0) return index + (field.name === "month" ? 1 : 0);
  const hint = field.names
    ? ` (a number ${field.min}-${field.max} or ${field.names[0]}-${field.names[field.names.length - 1]})`
    : ` (a number ${field.min}-${field.max})`;
  throw new CronError(`'${raw.slice(0, 20)}' is not a valid ${field.name} value${hint}`);
}

function parseField(text: string, field: CronField): number[] {
  const out = new Set<number>();
  for (const item of text.split(",")) {
    if (item === "") throw new CronError(`the ${field.name} field has an empty list item`);
    const [range, stepText, extra] = item.split("/");
    if (extra !== undefined) throw new CronError(`'${item.slice(0, 20)}' in the ${field.name} field has more than one '/'`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0)
        throw new CronError(`the step '${stepText.slice(0, 20)}' in the ${field.name} field must be a whole number from 1 to ${field.max}`);
      step = Number(stepText);
      if (step > field.max) throw new CronError(`the step ${step} in the ${field.name} field is larger than ${field.max}`);
    }
    let lo: number, hi: number;
    if (range === "*") {
      lo = field.min;
      hi = field.max;
    } else if (range.includes("-")) {
      const [a, b, more] = range.split("-");
      if (more !== undefined || a === "" || b === "")
        throw new CronError(`'${range.slice(0, 20)}' in the ${field.name} field is not a range such as 1-5`);
      lo = value(a, field);
      hi = value(b, field);
      if (lo > hi) throw new CronError(`the ${field.name} range ${a}-${b} runs backwards; write the smaller value first`);
    } else {
      lo = value(range, field);
      // `5/15` means from 5 to the end in steps of 15 (Vixie cron).
      hi = stepText !== undefined ? field.max : lo;
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}

/** Parses an expression; never throws. */
export function parseCron(expression: string): CronResult {
  if (typeof expression !== "string") return { ok: false, message: "a cron expression must be a string" };
  const trimmed = expression.trim();
  if (trimmed.length === 0) return { ok: false, message: "the cron expression is empty" };
  if (trimmed.length > 200) return { ok: false, message: "the cron expression is longer than 200 characters" };
  let text = trimmed;
  if (text.startsWith("@")) {
    const macro = CRON_MACROS[text.toLowerCase()];
    if (!macro)
      return { ok: false, message: `'${text.slice(0, 20)}' is not a cron shorthand; use one of ${Object.keys(CRON_MACROS).join(", ")}` };
    text = macro;
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5) {
    return {
      ok: false,
      message: `a cron expression has 5 fields (minute hour day-of-month month day-of-week), this one has ${parts.length}`,
    };
  }
  try {
    const [minute, hour, dayOfMonth, month, dow] = parts.map((p, i) => parseField(p, CRON_FIELDS[i]));
    const dayOfWeek = [...new Set(dow.map((d) => d % 7))].sort((a, b) => a - b);
    const parsed: ParsedCron = {
      minute,
      hour,
      dayOfMonth,
      month,
      dayOfWeek,
      dayOfMonthAny: parts[2] === "*",
      dayOfWeekAny: parts[4] === "*",
    };
    // With the day of week unrestricted, a day of month that no chosen month has never comes: `0 0 30 2 *`.
    if (parsed.dayOfWeekAny && !parsed.dayOfMonthAny && !month.some((m) => dayOfMonth.some((d) => d <= MAX_DAYS[m - 1]))) {
      const months = month.map((m) => MONTH_NAMES[m - 1]).join(", ");
      return {
        ok: false,
        message: `the schedule never runs: ${months} ${month.length > 1 ? "have" : "has"} no day ${dayOfMonth.join(", ")}`,
      };
    }
    return { ok: true, value: parsed };
  } catch (e) {
    if (e instanceof CronError) return { ok: false, message: e.message };
    throw e;
  }
}

const problems = new Map<string, string | null>();

/** The problem with an expression, or null when it is valid (remembered for the most recent 1,000 expressions). */
export function cronProblem(expression: string): string | null {
  let problem = problems.get(expression);
  if (problem === undefined) {
    const r = parseCron(expression);
    problem = r.ok ? null : r.message;
    if (problems.size >= 1_000) problems.delete(problems.keys().next().value!);
    problems.set(expression, problem);
  }
  return problem;
}

export function isValidCron(expression: string): boolean {
  return parseCron(expression).ok;
}

import { type ColumnType, type Columns, checkedColumnNames } from "@/lib/db/columns";
import { isoText } from "@/lib/db/iso-text";

// A usage event's journal line, compiled once from the recorder's column list: JSON.stringify of the row was about
// 7 µs a gateway call on these machines (28 properties looked up by name, and the date through toJSON), written
// before the call's answer; this writes each column by its own name and type in 2.9 (in process). The line reads
// back as JSON.stringify's does (tests/unit/journal-line.test.ts): the same columns and values, undefined ones left
// out; anything the fast paths do not expect (a string that needs escaping, a number that is not finite, a
// value of another type) goes through JSON.stringify.

type Encode = (v: unknown) => string;

const PLAIN_TEXT = /["\\\u0000-\u001f\ud800-\udfff]/; // what JSON escapes; a lone surrogate included
// A null (a column the call leaves empty: its user, error, identifier, region) is written without JSON.stringify.
const text: Encode = (v) => (typeof v === "string" && !PLAIN_TEXT.test(v) ? `"${v}"` : v === null ? "null" : JSON.stringify(v));
const number: Encode = (v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v === null ? "null" : JSON.stringify(v));
const encoders: Record<ColumnType, Encode> = {
  text,
  int: number,
  float: number,
  bool: (v) => (v === true ? "true" : v === false ? "false" : JSON.stringify(v)),
  date: (v) => (v instanceof Date && Number.isFinite(v.getTime()) ? `"${isoText(v)}"` : JSON.stringify(v)),
  json: (v) => JSON.stringify(v),
};

/** A row of these columns as one line of JSON. Only the columns are written: what the journal's replay inserts
 * (bulkInsert with the same columns) is all it reads. A row without the first column (the journal's `id`) is
 * written by JSON.stringify. */
export function jsonLineEncoder(columns: Columns): (row: Record<string, unknown>) => string {
  const names = checkedColumnNames(columns, "journal line");
  const [first, ...rest] = names;
  const body = [
    `if (row.${first} === undefined) return JSON.stringify(row);`,
    `let s = '{"${first}":' + e[0](row.${first});`,
    ...rest.map((name, i) => `if (row.${name} !== undefined) s += ',"${name}":' + e[${i + 1}](row.${name});`),
    `return s + "}";`,
  ].join("\n");
  return new Function("e", `return (row) => { ${body} };`)(names.map((name) => encoders[columns[name]])) as (
    row: Record<string, unknown>,
  ) => string;
}

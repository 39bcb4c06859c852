// A table's columns as the usage recorder's writers name them: each compiles its row code from these names
// (lib/db/bulk-insert.ts for the INSERT's values, lib/usage/journal-line.ts for the journal's JSON line), so a
// name is checked once, here, before it becomes code.

export type ColumnType = "text" | "int" | "float" | "bool" | "date" | "json";
export type Columns = Record<string, ColumnType>;

const COLUMN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The columns' names in order, each a plain identifier (else thrown, naming `user` and the name). */
export function checkedColumnNames(columns: Columns, user: string): string[] {
  const names = Object.keys(columns);
  for (const name of names) if (!COLUMN_NAME.test(name)) throw new Error(`${user}: bad column name ${JSON.stringify(name)}`);
  return names;
}

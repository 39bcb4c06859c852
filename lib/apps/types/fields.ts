import { z } from "zod";

// Field builders for the app types' `config` objects, so each type's file reads like its row of the spec's table.
// The table's rule: booleans are true unless a default is given. Where the table gives a list no default, it
// starts empty; where it gives a string no default, the string is absent.

export const flag = (value = true) => z.boolean().default(value);

export const names = (value: string[] = []) => z.array(z.string().min(1).max(100)).max(100).default(value);

export const text = () => z.string().min(1).max(500).optional();

/** What the shell and the gallery say about an app type: one sentence per default view and per default panel. */
export type AppTypeMeta = {
  description: string;
  views: Record<string, string>;
  panels: Record<string, string>;
};

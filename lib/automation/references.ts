import { db } from "@/lib/db/client";
import { ID_PREFIXES, isIdOf } from "@/lib/ids";
import { invalidField, stateConflict } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import { kindDef, type KindDef, type Reference } from "./kinds";

// The checks a document needs the database for: the records it names exist in the same business and environment
// (team agents, trigger targets, task dependencies, an execution's parent), task dependencies form no cycle, an
// execution is not its own ancestor, and a record others depend on is not deleted under them.

type Doc = Record<string, unknown>;
const MAX_GRAPH_STEPS = 10_000;
const CHUNK = 500;

const article = (word: string) => (/^[aeiou]/.test(word) ? "an" : "a");

/** The space-separated ids stored in the `refs` column (what a delete looks for). */
export function refsColumn(refs: readonly Reference[]): string {
  return refs.length ? ` ${[...new Set(refs.map((r) => r.id))].join(" ")} ` : "";
}

async function existing(auth: AuthContext, ids: string[], select: { document?: true; ref?: true } = {}) {
  const rows: { id: string; kind: string; document?: unknown; ref?: string | null }[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    rows.push(
      ...(await db.automationResource.findMany({
        where: { ...tenantWhere(auth), id: { in: ids.slice(i, i + CHUNK) } },
        select: { id: true, kind: true, ...select },
      })),
    );
  }
  return rows;
}

/** Each reference names a record of the right kind that exists; throws 400 INVALID_FIELD at the reference's path. */
async function checkExist(auth: AuthContext, refs: readonly Reference[]): Promise<void> {
  for (const r of refs) {
    const target = kindDef(r.kind);
    if (!isIdOf(target.idKind, r.id)) {
      throw invalidField(
        r.path,
        `'${r.id.slice(0, 64)}' is not ${article(target.label)} ${target.label} id; ${target.label} ids start with '${ID_PREFIXES[target.idKind]}_'.`,
      );
    }
  }
  const found = new Map((await existing(auth, [...new Set(refs.map((r) => r.id))])).map((row) => [row.id, row.kind]));
  for (const r of refs) {
    if (found.get(r.id) !== r.kind) {
      const label = kindDef(r.kind).label;
      throw invalidField(
        r.path,
        `No ${label} '${r.id}' exists in this environment.`,
        `Create the ${label} first, with a key of the same environment (test or live) as this request.`,
      );
    }
  }
}

/**
 * A cycle the dependencies of task `self` would close, as the ids around it (self first and last), or null.
 * Breadth-first over the stored tasks, one query per level.
 */
async function dependencyCycle(auth: AuthContext, self: string, deps: string[]): Promise<{ index: number; cycle: string[] } | null> {
  const via = new Map<string, string>();
  for (const d of deps) via.set(d, self);
  let frontier = [...new Set(deps)];
  const seen = new Set(frontier);
  for (let steps = 0; frontier.length && steps < MAX_GRAPH_STEPS; steps += frontier.length) {
    const next: string[] = [];
    for (const row of await existing(auth, frontier, { document: true })) {
      if (row.kind !== "Task") continue;
      for (const d of ((row.document as Doc).dependencies as string[] | undefined) ?? []) {
        if (d === self) {
          const chain = [self];
          for (let at: string | undefined = row.id; at && at !== self; at = via.get(at)) chain.unshift(at);
          chain.unshift(self);
          return { index: deps.indexOf(chain[1]), cycle: chain };
        }
        if (!seen.has(d)) {
          seen.add(d);
          via.set(d, row.id);
          next.push(d);
        }
      }
    }
    frontier = next;
  }
  return null;
}

/** An execution's parent exists and is not the execution itself or one of its descendants. */
async function checkParent(auth: AuthContext, self: string | null, parentId: string): Promise<void> {
  if (!isIdOf("execution", parentId))
    throw invalidField("parentId", `'${parentId.slice(0, 64)}' is not an execution id; execution ids start with 'exec_'.`);
  let at: string | null = parentId;
  for (let hops = 0; at && hops < 1_000; hops++) {
    if (at === self) throw invalidField("parentId", `'${parentId}' descends from this execution; an execution cannot be its own ancestor.`);
    const [row] = await existing(auth, [at], { ref: true });
    if (!row || row.kind !== "ExecutionContext") {
      if (hops === 0)
        throw invalidField(
          "parentId",
          `No execution '${parentId}' exists in this environment.`,
          "Create the parent execution first, with a key of the same environment (test or live).",
        );
      return; // an ancestor was deleted: the chain ends there
    }
    at = row.ref ?? null;
  }
}

/** Every database-backed rule of a document; `self` is the record's id on update, null on create. */
export async function checkReferences(auth: AuthContext, def: KindDef, doc: Doc, self: string | null): Promise<Reference[]> {
  const refs = def.references(doc);
  if (def.kind === "Task" && self) {
    const i = refs.findIndex((r) => r.id === self);
    if (i >= 0) throw invalidField(refs[i].path, "A task cannot depend on itself.");
  }
  if (refs.length) await checkExist(auth, refs);
  if (def.kind === "Task" && self && refs.length) {
    const found = await dependencyCycle(
      auth,
      self,
      refs.map((r) => r.id),
    );
    if (found) {
      throw invalidField(
        `dependencies[${found.index}]`,
        `Depending on '${found.cycle[1]}' would make a cycle: ${found.cycle.join(" → ")}.`,
        "Remove one of the dependencies in the cycle.",
      );
    }
  }
  if (def.kind === "ExecutionContext" && typeof doc.parentId === "string") await checkParent(auth, self, doc.parentId);
  return refs;
}

/** Refuses (409) to delete a record that other records of the business reference. */
export async function assertUnreferenced(auth: AuthContext, def: KindDef, id: string): Promise<void> {
  const rows = await db.automationResource.findMany({
    where: { ...tenantWhere(auth), refs: { contains: ` ${id} ` }, NOT: { id } },
    select: { id: true, refs: true },
    take: 20,
  });
  // LIKE treats '_' as a wildcard: keep only exact matches.
  const users = rows.filter((r) => r.refs.split(" ").includes(id)).map((r) => r.id);
  if (users.length) {
    throw stateConflict(
      `This ${def.label} is referenced by ${users.slice(0, 5).join(", ")}${users.length > 5 ? ", …" : ""}; remove those references (or delete them) first.`,
      { referencedBy: users },
    );
  }
}

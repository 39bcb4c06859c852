import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { invalidField, stateConflict } from "@/lib/http/errors";
import { zodToApiError } from "@/lib/http/zod-errors";
import { tenantWhere } from "@/lib/http/tenant";
import { emitEvent, withEvents } from "@/lib/events/emit-event";
import type { AuthContext } from "@/lib/http/auth-context";
import type { Prisma, AutomationResource as Row } from "@/generated/prisma-sqlite";
import { assertMove, isFinal } from "./state-machines";
import { assertUnreferenced, checkReferences, refsColumn } from "./references";
import { getResourceOrThrow } from "./get-resource-or-throw";
import { eventData, serializeResource } from "./serialize-resource";
import type { KindDef } from "./kinds";

// Create, update and delete for every automation kind. Each write validates the whole document (the route has
// parsed the body with the kind's schema; an update is merged and parsed again), checks its references in the
// database, and commits the row with its resource.* event in one transaction.

type Doc = Record<string, unknown>;

/** What is stored: the document without the server's identity fields. */
function stored(doc: Doc): Doc {
  const { $id: _a, $type: _b, id: _c, ...rest } = doc;
  return rest;
}

/** Order-insensitive JSON equality (PostgreSQL's jsonb reorders keys). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const ka = Object.keys(a),
    kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Doc)[k], (b as Doc)[k]));
}

/** Re-validates a document the server has changed (merged, filled in) with the kind's schema. */
function validate(def: KindDef, doc: Doc): Doc {
  const result = def.schema.safeParse(doc, { reportInput: true });
  if (!result.success) throw zodToApiError(result.error, "body");
  return stored(result.data as Doc);
}

/** Server-filled fields of an execution: when it started, and when it ended once its status is final. */
function fillExecution(def: KindDef, doc: Doc): boolean {
  if (def.kind !== "ExecutionContext") return false;
  let changed = false;
  const t = now().toISOString();
  if (doc.startedAt === undefined) {
    doc.startedAt = t;
    changed = true;
  }
  if (def.machine && isFinal(def.machine, String(doc.status)) && doc.endedAt === undefined) {
    doc.endedAt = Date.parse(t) < Date.parse(String(doc.startedAt)) ? doc.startedAt : t;
    changed = true;
  }
  return changed;
}

function rowData(def: KindDef, doc: Doc, refs: string) {
  return { ...def.columns(doc), refs, document: doc as Prisma.InputJsonValue };
}

export async function createResource(auth: AuthContext, def: KindDef, input: unknown) {
  const body = input as Doc;
  if (body.$id !== undefined) throw invalidField("$id", "'$id' is assigned by the server; omit it when creating.");
  if (def.kind === "ExecutionContext" && body.id !== undefined)
    throw invalidField("id", "'id' is assigned by the server; omit it when creating.");
  let doc = stored(body);
  if (fillExecution(def, doc)) doc = validate(def, doc);
  const refs = await checkReferences(auth, def, doc, null);
  const t = now();
  return withEvents(
    async (tx) => {
      const row = await tx.automationResource.create({
        data: {
          id: newId(def.idKind),
          kind: def.kind,
          ...tenantWhere(auth),
          ...rowData(def, doc, refsColumn(refs)),
          createdAt: t,
          updatedAt: t,
        },
      });
      const record = serializeResource(def, row);
      await emitEvent({ ...tenantWhere(auth), type: "resource.created", data: eventData(def, record) }, tx);
      return record;
    },
    { answer: (record) => record },
  );
}

const ATTEMPTS = 3;

/**
 * PATCH: the fields given replace the stored ones (null removes an optional field, bringing back its default),
 * and the result is validated whole. A status change must be a legal move of the kind's state machine (409
 * otherwise). Two concurrent updates cannot both apply to the same version: the write is conditional on the
 * version read, and a lost race starts over.
 */
export async function updateResource(auth: AuthContext, def: KindDef, id: string, input: unknown) {
  const patch = input as Doc;
  for (let attempt = 1; ; attempt++) {
    const row = await getResourceOrThrow(auth, def, id);
    const result = await applyPatch(auth, def, row, patch);
    if (result !== "conflict") return result;
    if (attempt >= ATTEMPTS) throw stateConflict(`The ${def.label} was changed by another request at the same time; retry.`);
  }
}

async function applyPatch(auth: AuthContext, def: KindDef, row: Row, patch: Doc): Promise<Record<string, unknown> | "conflict"> {
  const current = row.document as Doc;
  const merged: Doc = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (key === "$type") continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  if (def.machine && typeof patch.status === "string") assertMove(def.machine, String(current.status), patch.status);
  fillExecution(def, merged);
  const doc = validate(def, merged);
  if (sameJson(doc, current)) return serializeResource(def, row);
  const refs = await checkReferences(auth, def, doc, row.id);

  // Strictly later than the version read, so the condition below tells every other write apart.
  const t = new Date(Math.max(now().getTime(), row.updatedAt.getTime() + 1));
  return withEvents(async (tx) => {
    const { count } = await tx.automationResource.updateMany({
      where: { id: row.id, updatedAt: row.updatedAt },
      data: { ...rowData(def, doc, refsColumn(refs)), updatedAt: t },
    });
    if (count === 0) return "conflict" as const;
    const after = serializeResource(def, { ...row, ...def.columns(doc), document: doc as Prisma.JsonValue, updatedAt: t });
    const previousAttributes: Doc = {};
    for (const key of new Set([...Object.keys(current), ...Object.keys(doc)])) {
      if (!sameJson(current[key], doc[key])) previousAttributes[key] = current[key] ?? null;
    }
    await emitEvent({ ...tenantWhere(auth), type: "resource.updated", data: eventData(def, after), previousAttributes }, tx);
    return after;
  });
}

/** DELETE: 204; refused with 409 while other records reference this one. */
export async function deleteResource(auth: AuthContext, def: KindDef, id: string) {
  const row = await getResourceOrThrow(auth, def, id);
  await assertUnreferenced(auth, def, row.id);
  await withEvents(async (tx) => {
    await tx.automationResource.deleteMany({ where: { id: row.id } });
    await emitEvent({ ...tenantWhere(auth), type: "resource.deleted", data: eventData(def, serializeResource(def, row)) }, tx);
  });
}

import type { z } from "zod";
import type { IdKind } from "@/lib/ids";
import { columnWhere, type CollectionSpec, type FilterField } from "@/lib/http/collection-query";
import { searchable } from "@/lib/products/product-collection";
import {
  Agent,
  AgentUpdate,
  AgentRecord,
  agentShape,
  AI_PROVIDERS,
  AgentTeam,
  AgentTeamUpdate,
  AgentTeamRecord,
  agentTeamShape,
  ORCHESTRATIONS,
  Workflow,
  WorkflowUpdate,
  WorkflowRecord,
  workflowShape,
  Function,
  FunctionUpdate,
  FunctionRecord,
  functionShape,
  RUNTIMES,
  Trigger,
  TriggerUpdate,
  TriggerRecord,
  triggerFlatShape,
  TRIGGER_TYPES,
  Tool,
  ToolUpdate,
  ToolRecord,
  toolShape,
  TOOL_CATEGORIES,
  Task,
  TaskUpdate,
  TaskRecord,
  taskShape,
  ExecutionContext,
  ExecutionContextUpdate,
  ExecutionContextRecord,
  executionShape,
} from "@/lib/schemas/automation";
import { EXECUTION_MACHINE, EXECUTION_STATUSES, TASK_MACHINE, TASK_STATUSES, type StateMachine } from "./state-machines";

// The eight automation kinds as data: schemas, id prefix, scope, path, the columns a collection filters on and the
// references a document makes. Routes (routes.ts), storage (write-resource.ts) and docs are built from this table.

export type KindName = "Agent" | "AgentTeam" | "Workflow" | "Function" | "Trigger" | "Tool" | "Task" | "ExecutionContext";

type Doc = Record<string, unknown>;

/** The columns copied from a document on every write (prisma/schema.prisma, AutomationResource). */
export interface Columns {
  name: string;
  status: string | null;
  subtype: string | null;
  enabled: boolean | null;
  priority: number | null;
  ref: string | null;
  dueDate: Date | null;
  startedAt: Date | null;
  searchText: string;
}

/** A document's reference to another record; it must exist, and while it does the other cannot be deleted. */
export interface Reference {
  /** The field path in the document, for the error: `agents[1]`, `target.id`. */
  path: string;
  id: string;
  kind: KindName;
}

export interface KindDef {
  kind: KindName;
  idKind: IdKind;
  /** Path segment under /v1. */
  path: string;
  /** Scope resource: `agents` → agents:read, agents:write, agents:delete. */
  scope: string;
  /** Singular and plural names for messages and summaries. */
  label: string;
  plural: string;
  /** `object` of the resource.* event data. */
  object: string;
  /** Whether records carry `$type` (every kind but Tool). */
  typed: boolean;
  /** The document / create body, the PATCH body and the response record. */
  schema: z.ZodType;
  update: z.ZodType;
  record: z.ZodType;
  /** Field order of the record (the document's own fields, in the spec's order). */
  fields: string[];
  collection: CollectionSpec;
  columns(doc: Doc): Columns;
  references(doc: Doc): Reference[];
  machine?: StateMachine;
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const date = (v: unknown): Date | null => (typeof v === "string" ? new Date(v) : null);
const text = (...parts: unknown[]) => searchable(parts.filter((p) => typeof p === "string").join("\n"));

function columns(doc: Doc, c: Partial<Columns>): Columns {
  return {
    name: str(doc.name) ?? "",
    status: null,
    subtype: null,
    enabled: null,
    priority: null,
    ref: null,
    dueDate: null,
    startedAt: null,
    searchText: text(doc.name, doc.description),
    ...c,
  };
}

const stringFilter = (column: string): FilterField => ({ type: "string", where: columnWhere(column) });
const enumFilter = (column: string, values: readonly string[]): FilterField => ({ type: "enum", values, where: columnWhere(column) });
const boolFilter = (column: string): FilterField => ({ type: "boolean", where: columnWhere(column) });

function collection(
  fields: string[],
  extra: Record<string, FilterField>,
  opts: { named?: boolean; sortable?: string[]; search?: boolean } = {},
): CollectionSpec {
  const named = opts.named ?? true;
  return {
    filters: {
      id: { type: "string" },
      ...(named ? { name: { type: "string" } } : {}),
      createdAt: { type: "date" },
      updatedAt: { type: "date" },
      ...extra,
    },
    sortable: opts.sortable ?? ["createdAt", "updatedAt", ...(named ? ["name"] : []), "id"],
    fields: [...fields, "environment", "createdAt", "updatedAt"],
    ...(opts.search === false
      ? {}
      : { search: (terms: string[]) => ({ AND: terms.map((t) => ({ searchText: { contains: searchable(t) } })) }) }),
  };
}

const fieldsOf = (shape: Record<string, unknown>, typed: boolean) => [
  "$id",
  ...(typed ? ["$type"] : []),
  ...Object.keys(shape).filter((k) => k !== "$id" && k !== "$type" && k !== "id"),
];

function def(
  d: Omit<KindDef, "fields" | "collection"> & {
    shape: Record<string, unknown>;
    filters: Record<string, FilterField>;
    collectionOpts?: Parameters<typeof collection>[2];
  },
): KindDef {
  const { shape, filters, collectionOpts, ...rest } = d;
  const fields = fieldsOf(shape, d.typed);
  return { ...rest, fields, collection: collection(fields, filters, collectionOpts) };
}

const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);
const TARGET_KIND: Record<string, KindName> = { workflow: "Workflow", agent: "Agent", function: "Function" };

export const KINDS: readonly KindDef[] = [
  def({
    kind: "Agent",
    idKind: "agent",
    path: "agents",
    scope: "agents",
    label: "agent",
    plural: "agents",
    object: "agent",
    typed: true,
    schema: Agent,
    update: AgentUpdate,
    record: AgentRecord,
    shape: agentShape,
    filters: { provider: enumFilter("subtype", AI_PROVIDERS) },
    columns: (d) => columns(d, { subtype: str((d.model as Doc | undefined)?.provider), searchText: text(d.name, d.role) }),
    references: () => [],
  }),
  def({
    kind: "AgentTeam",
    idKind: "agentTeam",
    path: "agent-teams",
    scope: "agent_teams",
    label: "agent team",
    plural: "agent teams",
    object: "agent_team",
    typed: true,
    schema: AgentTeam,
    update: AgentTeamUpdate,
    record: AgentTeamRecord,
    shape: agentTeamShape,
    filters: { orchestration: enumFilter("subtype", ORCHESTRATIONS) },
    columns: (d) => columns(d, { subtype: str(d.orchestration), searchText: text(d.name, d.purpose) }),
    references: (d) => ids(d.agents).map((id, i) => ({ path: `agents[${i}]`, id, kind: "Agent" as const })),
  }),
  def({
    kind: "Workflow",
    idKind: "workflow",
    path: "workflows",
    scope: "workflows",
    label: "workflow",
    plural: "workflows",
    object: "workflow",
    typed: true,
    schema: Workflow,
    update: WorkflowUpdate,
    record: WorkflowRecord,
    shape: workflowShape,
    filters: { active: boolFilter("enabled") },
    columns: (d) => columns(d, { enabled: d.active !== false }),
    // A trigger inside a workflow may name another target; one without a target starts the workflow itself.
    references: (d) =>
      (Array.isArray(d.triggers) ? d.triggers : []).flatMap((t: Doc, i) => {
        const target = t.target as Doc | undefined;
        return target && typeof target.id === "string"
          ? [{ path: `triggers[${i}].target.id`, id: target.id, kind: TARGET_KIND[String(target.type)] }]
          : [];
      }),
  }),
  def({
    kind: "Function",
    idKind: "function",
    path: "functions",
    scope: "functions",
    label: "function",
    plural: "functions",
    object: "function",
    typed: true,
    schema: Function,
    update: FunctionUpdate,
    record: FunctionRecord,
    shape: functionShape,
    filters: { runtime: enumFilter("subtype", RUNTIMES) },
    columns: (d) => columns(d, { subtype: str(d.runtime) }),
    references: () => [],
  }),
  def({
    kind: "Trigger",
    idKind: "trigger",
    path: "triggers",
    scope: "triggers",
    label: "trigger",
    plural: "triggers",
    object: "trigger",
    typed: true,
    schema: Trigger,
    update: TriggerUpdate,
    record: TriggerRecord,
    shape: triggerFlatShape,
    filters: { type: enumFilter("subtype", TRIGGER_TYPES), enabled: boolFilter("enabled"), target: stringFilter("ref") },
    columns: (d) => columns(d, { subtype: str(d.type), enabled: d.enabled !== false, ref: str((d.target as Doc | undefined)?.id) }),
    references: (d) => {
      const target = d.target as Doc | undefined;
      return target && typeof target.id === "string" ? [{ path: "target.id", id: target.id, kind: TARGET_KIND[String(target.type)] }] : [];
    },
  }),
  def({
    kind: "Tool",
    idKind: "tool",
    path: "tools",
    scope: "tools",
    label: "tool",
    plural: "tools",
    object: "tool",
    typed: false,
    schema: Tool,
    update: ToolUpdate,
    record: ToolRecord,
    shape: toolShape,
    filters: { category: enumFilter("subtype", TOOL_CATEGORIES) },
    columns: (d) => columns(d, { subtype: str(d.category) }),
    references: () => [],
  }),
  def({
    kind: "Task",
    idKind: "task",
    path: "tasks",
    scope: "tasks",
    label: "task",
    plural: "tasks",
    object: "task",
    typed: true,
    schema: Task,
    update: TaskUpdate,
    record: TaskRecord,
    shape: taskShape,
    machine: TASK_MACHINE,
    filters: {
      title: stringFilter("name"),
      status: enumFilter("status", TASK_STATUSES),
      priority: { type: "integer" },
      assignee: stringFilter("ref"),
      dueDate: { type: "date" },
    },
    collectionOpts: { named: false, sortable: ["createdAt", "updatedAt", "priority", "id"] },
    columns: (d) =>
      columns(d, {
        name: str(d.title) ?? "",
        status: str(d.status),
        priority: typeof d.priority === "number" ? d.priority : null,
        ref: str(d.assignee),
        dueDate: date(d.dueDate),
        searchText: text(d.title, d.description),
      }),
    references: (d) => ids(d.dependencies).map((id, i) => ({ path: `dependencies[${i}]`, id, kind: "Task" as const })),
  }),
  def({
    kind: "ExecutionContext",
    idKind: "execution",
    path: "executions",
    scope: "executions",
    label: "execution",
    plural: "executions",
    object: "execution",
    typed: true,
    schema: ExecutionContext,
    update: ExecutionContextUpdate,
    record: ExecutionContextRecord,
    shape: executionShape,
    machine: EXECUTION_MACHINE,
    filters: { status: enumFilter("status", EXECUTION_STATUSES), parentId: stringFilter("ref"), startedAt: { type: "date" } },
    collectionOpts: { named: false, sortable: ["createdAt", "updatedAt", "startedAt", "id"], search: false },
    columns: (d) => columns(d, { name: "", status: str(d.status), ref: str(d.parentId), startedAt: date(d.startedAt), searchText: "" }),
    // parentId is checked when written (it must name an execution, and no ancestor loop), but does not pin its parent:
    // deleting a parent leaves its children's parentId pointing at a deleted run.
    references: () => [],
  }),
];

export const KIND_BY_NAME: ReadonlyMap<KindName, KindDef> = new Map(KINDS.map((k) => [k.kind, k]));

export function kindDef(kind: KindName): KindDef {
  return KIND_BY_NAME.get(kind)!;
}

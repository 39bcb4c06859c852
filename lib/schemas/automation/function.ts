import { z } from "zod";
import {
  document,
  intIn,
  stringMap,
  cron,
  expression,
  httpUrl,
  patchShape,
  prose,
  recordShape,
  resourceId,
  text,
  timeZone,
  typeTag,
  uniqueCheck,
} from "./shared";

// Function ($type Function): code the platform runs, with its HTTP endpoint, schedule, events, scaling and network.
// Defaults follow the spec's limits: 128 MB, 30 s, 0 to 100 instances with concurrency 10.

export const RUNTIMES = ["nodejs20", "nodejs18", "python311", "python310", "deno", "bun", "go", "rust", "edge"] as const;
/** inline code, a git repository, a URL, or an object store (s3, gcs, r2, azure_blob). */
export const SOURCE_TYPES = ["inline", "git", "url", "s3", "gcs", "r2", "azure_blob"] as const;
export const HTTP_METHODS = ["GET", "POST", "PUT", "DELETE", "ANY"] as const;
export const HTTP_AUTH = ["none", "api_key", "jwt", "custom"] as const;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const ENV_MESSAGE = "must be an environment variable name (letters, digits and '_', not starting with a digit)";
const envName = () => z.string().regex(ENV_NAME, ENV_MESSAGE);

export const FunctionSource = z
  .strictObject({
    type: z.enum(SOURCE_TYPES),
    value: z.string().min(1, "must not be empty").max(500_000).meta({ description: "The code (inline), repository, URL or object path" }),
  })
  .superRefine((s, ctx) => {
    if (s.type === "url" && !httpUrl().safeParse(s.value).success) {
      ctx.addIssue({ code: "custom", path: ["value"], message: "must be an http(s) URL when source.type is 'url'", input: s.value });
    }
  })
  .meta({ id: "FunctionSource" });

const int = (min: number, max: number, unit: string) => intIn(min, max, `must be a whole number from ${min} to ${max} ${unit}`);

export const functionShape = {
  $id: resourceId(),
  $type: typeTag("Function"),
  name: text(200),
  description: prose(10_000),
  runtime: z.enum(RUNTIMES),
  entrypoint: text(500).meta({ description: "Handler path", example: "src/index.handler" }),
  source: FunctionSource,
  memory: int(128, 10_240, "MB").default(128).meta({ description: "MB" }),
  timeout: int(1, 900, "seconds").default(30).meta({ description: "Seconds" }),
  env: stringMap("Environment variables", ENV_NAME, ENV_MESSAGE).optional(),
  secrets: z.array(envName()).max(100).optional().meta({ description: "Names of the secrets to inject" }),
  http: z
    .strictObject({
      enabled: z.boolean().default(true),
      method: z.enum(HTTP_METHODS).optional(),
      path: z
        .string()
        .regex(/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/{}]*$/, "must be a URL path starting with '/'")
        .max(500)
        .optional(),
      cors: z.boolean().default(true),
      auth: z.enum(HTTP_AUTH).optional(),
    })
    .prefault({}),
  schedule: z
    .strictObject({
      enabled: z.boolean().default(false),
      cron: cron(),
      timezone: timeZone().default("UTC"),
    })
    .optional(),
  events: z
    .array(z.strictObject({ source: text(200), type: text(200), filter: expression().optional() }))
    .max(50)
    .optional(),
  scaling: z
    .strictObject({
      minInstances: int(0, 1_000, "instances").default(0),
      maxInstances: int(1, 1_000, "instances").default(100),
      concurrency: int(1, 1_000, "requests per instance").default(10),
    })
    .prefault({})
    .superRefine((s, ctx) => {
      if (s.minInstances > s.maxInstances) {
        ctx.addIssue({
          code: "custom",
          path: ["minInstances"],
          message: `${s.minInstances} is more than maxInstances (${s.maxInstances})`,
          input: s.minInstances,
        });
      }
    }),
  vpc: z
    .strictObject({
      enabled: z.boolean().default(false),
      subnetIds: z.array(text(200)).max(50).optional(),
      securityGroupIds: z.array(text(200)).max(50).optional(),
    })
    .prefault({})
    .superRefine((v, ctx) => {
      if (v.enabled && !v.subnetIds?.length) {
        ctx.addIssue({
          code: "custom",
          path: ["subnetIds"],
          message: "A function in a VPC needs 'vpc.subnetIds': at least one subnet.",
          params: { code: "MISSING_REQUIRED_FIELD" },
          input: undefined,
        });
      }
    }),
  layers: z.array(text(500)).max(20).optional(),
  costCenter: text(200).optional(),
};

type FunctionFields = { secrets?: string[]; layers?: string[] };

const FunctionObject = z.strictObject(functionShape).superRefine((f: FunctionFields, ctx) => {
  if (f.secrets) uniqueCheck(ctx, f.secrets, (i) => ["secrets", i], "the secret");
  if (f.layers) uniqueCheck(ctx, f.layers, (i) => ["layers", i], "the layer");
});
export const Function = document(FunctionObject).meta({
  id: "Function",
  description: "A serverless function. The runtime-validation schema of the kind, and the body of POST /v1/functions.",
});
export const FunctionUpdate = document(z.strictObject(patchShape(functionShape))).meta({ id: "FunctionUpdate" });
export const FunctionRecord = z
  .object(recordShape(functionShape, "Function", true, "fn_01JD2Y7X3Q9W6E8R4T5Y7U9I0P"))
  .meta({ id: "FunctionRecord" });

export type Function = z.output<typeof Function>;
export type FunctionInput = z.input<typeof FunctionObject>;

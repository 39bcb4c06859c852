// Operator CLI: `npm run cli -- <command>`. Talks to DATABASE_URL directly (default: the embedded SQLite file).
//   bootstrap --business NAME [--plan free|starter|pro|enterprise] [--email OWNER] [--json]
//   keys create --project ID --env test|live --name NAME [--scopes a,b] [--json]
import { parseArgs } from "node:util";
import { bootstrapBusiness, PLANS, type Plan } from "@/lib/businesses/bootstrap-business";
import { createApiKey } from "@/lib/keys/create-api-key";
import { isValidScope } from "@/lib/auth/scopes";
import { maskKey } from "@/lib/keys/key-format";
import { db } from "@/lib/db/client";

class UsageError extends Error {}

const USAGE = `usage:
  npm run cli -- bootstrap --business NAME [--plan ${PLANS.join("|")}] [--email OWNER] [--json]
  npm run cli -- keys create --project ID --env test|live --name NAME [--scopes a,b] [--json]`;

async function bootstrap(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      business: { type: "string" },
      plan: { type: "string", default: "free" },
      email: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  if (values.email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(values.email)) throw new UsageError("--email must be an e-mail address");
  if (!values.business?.trim()) throw new UsageError("--business NAME is required");
  if (!(PLANS as readonly string[]).includes(values.plan!)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")}`);
  const out = await bootstrapBusiness(values.business.trim(), values.plan as Plan, values.email);
  if (values.json) console.log(JSON.stringify(out));
  else {
    console.log(`Business ${out.businessId} with project ${out.projectId}.`);
    console.log(`Test key: ${out.testKey}\nLive key: ${out.liveKey}\nThese keys are shown once; store them now.`);
  }
}

async function keysCreate(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      project: { type: "string" },
      env: { type: "string" },
      name: { type: "string" },
      scopes: { type: "string", default: "*" },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.project) throw new UsageError("--project ID is required");
  if (values.env !== "test" && values.env !== "live") throw new UsageError("--env must be test or live");
  if (!values.name?.trim()) throw new UsageError("--name NAME is required");
  const scopes = values
    .scopes!.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = scopes.find((s) => !isValidScope(s));
  if (bad || scopes.length === 0) throw new UsageError(`invalid scope '${bad ?? ""}': use resource:action, resource:* or *`);
  const project = await db.project.findUnique({ where: { id: values.project } });
  if (!project) throw new UsageError(`no project ${values.project}`);
  const { row, key } = await createApiKey({
    businessId: project.businessId,
    projectId: project.id,
    type: values.env,
    name: values.name.trim(),
    scopes,
    createdBy: "cli",
  });
  const out = {
    id: row.id,
    name: row.name,
    key,
    type: values.env,
    prefix: row.prefix,
    environment: row.environment,
    projectId: row.projectId,
    scopes,
  };
  if (values.json) console.log(JSON.stringify(out));
  else console.log(`Key ${row.id} (${maskKey(row.prefix, row.lastFour)}):\n${key}\nShown once; store it now.`);
}

async function main() {
  const [command, sub, ...rest] = process.argv.slice(2);
  if (command === "bootstrap") return bootstrap([sub, ...rest].filter((a) => a !== undefined));
  if (command === "keys" && sub === "create") return keysCreate(rest);
  throw new UsageError(command ? `unknown command '${[command, sub].filter(Boolean).join(" ")}'` : "no command given");
}

main()
  .then(() => db.$disconnect())
  .catch(async (e) => {
    await db.$disconnect().catch(() => {});
    if (e instanceof UsageError) {
      console.error(`error: ${e.message}\n${USAGE}`);
      process.exit(2);
    }
    // One line, never a stack: Prisma's messages run over several lines, the first says what failed.
    console.error(`error: ${(e instanceof Error ? e.message : String(e)).trim().split("\n")[0]}`);
    process.exit(1);
  });

// npm run bench:schemas: runs scripts/bench-schemas.ts (the zod schemas are TypeScript) through tsx, on one core.
import { spawnSync } from "node:child_process";

const r = spawnSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/bench-schemas.ts", ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(r.status ?? 1);

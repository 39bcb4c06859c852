// npm run bench:billing: runs scripts/bench-billing.ts (the rating code is TypeScript) through tsx.
import { spawnSync } from "node:child_process";

const r = spawnSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/bench-billing.ts", ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(r.status ?? 1);

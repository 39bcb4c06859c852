// Undici's pool class, loaded from its own file (lib/gateway/upstream-pool.ts says why): typed as the package's.
declare module "undici/lib/dispatcher/pool.js" {
  import { Pool } from "undici";
  export default Pool;
}

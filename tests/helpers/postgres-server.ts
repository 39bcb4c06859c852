// A PostgreSQL of a test's own that the test can stop and start (scripts/lib/own-postgres.mjs, shared with
// bench:outage), typed for the tests.
// @ts-expect-error: plain ESM script without types
import { startOwnPostgres as start } from "../../scripts/lib/own-postgres.mjs";

export interface OwnPostgres {
  /** postgresql://postgres@127.0.0.1:PORT/postgres: for createTestDatabase's admin connection. */
  adminUrl: string;
  /** `pg_ctl stop -m fast` (what pg_ctlcluster stop does): open connections are closed, new ones refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  destroy(): Promise<void>;
}

export const startOwnPostgres: () => Promise<OwnPostgres> = start;

// GET, POST /api/test-clock: read or move the server's clock (lib/server/test-clock-endpoint.ts).
import { getTestClock, moveTestClock } from "@/lib/server/test-clock-endpoint";

export const GET = getTestClock;
export const POST = moveTestClock;

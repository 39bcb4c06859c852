// GET /api/health: liveness, no auth and no database (also the static baseline of the benchmarks)
export function GET() {
  return Response.json({ status: "ok" });
}

// How a benchmark script runs: its main(run), then the cleanup of the bench it set as `run.bench` (load children
// killed, servers stopped, databases dropped) whether main succeeded or not, then the exit: 0, or 1 after the error's
// stack. It imports nothing, so a script may import it before prepare() has installed the packages.
export function runBench(main) {
  const run = { bench: null };
  (async () => {
    try {
      await main(run);
    } finally {
      await run.bench?.cleanup();
    }
  })().then(
    () => process.exit(0),
    (e) => {
      console.error(e?.stack ?? e);
      process.exit(1);
    },
  );
}

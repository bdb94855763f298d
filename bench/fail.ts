/**
 * A benchmark whose measured run failed must not print a ratio as if it had measured
 * something: it throws `BenchFailed`, `bench/run.ts` prints what failed, goes on with the
 * other benchmarks and exits 1 at the end. Any other error thrown by a benchmark is treated
 * the same way.
 *
 * Example: `mustSucceed(result.ok, "daily, first run: stages failed: mine")` throws
 * `BenchFailed("daily, first run: stages failed: mine")` when `result.ok` is false.
 */
export class BenchFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BenchFailed";
  }
}

export function mustSucceed(ok: boolean, what: string): void {
  if (!ok) throw new BenchFailed(what);
}

/**
 * A concurrency-limited pool shared by named callers. Each caller has its own queue and the
 * pool starts queued work round-robin across callers, so a caller with 10,000 queued calls
 * delays another caller's next call by at most one call per caller, never by its whole queue.
 *
 * Example: `const pool = new FairPool(16); await pool.run("errata-triage", () => ask(…))`;
 * `pool.maxActive` -> never above 16.
 */
export class FairPool {
  private readonly queues = new Map<string, (() => void)[]>();
  /** Callers in round-robin order (a caller is present while its queue is non-empty). */
  private readonly ring: string[] = [];
  private cursor = 0;
  private activeCount = 0;
  private maxActiveSeen = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`pool limit must be an integer >= 1 (found ${limit})`);
  }

  get active(): number {
    return this.activeCount;
  }

  /** The highest number of tasks that ran at once. */
  get maxActive(): number {
    return this.maxActiveSeen;
  }

  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  run<T>(caller: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.activeCount++;
        if (this.activeCount > this.maxActiveSeen) this.maxActiveSeen = this.activeCount;
        let p: Promise<T>;
        try {
          p = task();
        } catch (e) {
          p = Promise.reject(e);
        }
        p.then(resolve, reject).finally(() => {
          this.activeCount--;
          this.next();
        });
      };
      let q = this.queues.get(caller);
      if (!q) {
        q = [];
        this.queues.set(caller, q);
        this.ring.push(caller);
      }
      q.push(start);
      this.next();
    });
  }

  private next(): void {
    while (this.activeCount < this.limit && this.ring.length > 0) {
      if (this.cursor >= this.ring.length) this.cursor = 0;
      const caller = this.ring[this.cursor]!;
      const q = this.queues.get(caller) as (() => void)[];
      const start = q.shift() as () => void;
      if (q.length === 0) {
        this.queues.delete(caller);
        this.ring.splice(this.cursor, 1);
      } else {
        this.cursor++;
      }
      start();
    }
  }
}

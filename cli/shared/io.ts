import type { Writable } from "node:stream";

/**
 * Everything a command touches outside itself: output streams, environment, clock,
 * working directory and stdin. Tests pass their own; `defaultIo()` wires the process.
 */
export interface Io {
  stdout: Pick<Writable, "write">;
  stderr: Pick<Writable, "write">;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Whole stdin as text (commands that read stdin call this once). */
  readStdin: () => Promise<string>;
  /** True when stderr is a terminal, so long work may draw a progress bar. */
  isTTY: boolean;
}

export function defaultIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    now: () => Date.now(),
    readStdin: () => readAll(process.stdin),
    isTTY: Boolean(process.stderr.isTTY),
  };
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/** Writes exactly one JSON value and a newline: the `--json` contract. */
export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** "1 file", "2 files": a count with its noun, plural unless the count is 1. Example: `count(1, "row")` -> "1 row". */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

export function println(io: Io, line = ""): void {
  io.stdout.write(`${line}\n`);
}

export function warn(io: Io, line: string): void {
  io.stderr.write(`${line}\n`);
}

/** A progress reporter for long work: a redrawn bar on a terminal, sparse lines otherwise. */
export function progress(io: Io, label: string, total: number): { tick: (n?: number) => void; done: () => void } {
  let count = 0;
  let lastPrinted = -1;
  const step = Math.max(1, Math.floor(total / 10));
  return {
    tick(n = 1) {
      count += n;
      if (io.isTTY) {
        const width = 30;
        const filled = total > 0 ? Math.min(width, Math.round((count / total) * width)) : 0;
        io.stderr.write(`\r${label} [${"#".repeat(filled)}${" ".repeat(width - filled)}] ${count}/${total}`);
      } else if (count - lastPrinted >= step || count === total) {
        lastPrinted = count;
        io.stderr.write(`${label}: ${count}/${total}\n`);
      }
    },
    done() {
      if (io.isTTY) io.stderr.write("\n");
    },
  };
}

/**
 * A throwaway PostgreSQL cluster for the tests that need a real database: initdb into a temp
 * folder, started on a free loopback port with fsync off, stopped and removed after. Debian's
 * `postgresql` package provides the binaries (`apt-get install -y postgresql`); as root the
 * cluster runs as the `postgres` user (`runuser`), since the server refuses to run as root.
 * With no binaries, `POSTGRES_BIN` is null and the tests skip (skips.ts prints the one line).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

function findBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, "bin", "initdb"))) return join(root, v, "bin");
  return null;
}

export const POSTGRES_BIN = findBin();
export const POSTGRES_INITDB = join(POSTGRES_BIN ?? "/usr/lib/postgresql/N/bin", "initdb");

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a !== null ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface TestPostgres {
  url: string;
  /** A URL for another database in the same cluster (created on first use). */
  database(name: string): string;
  stop(): void;
}

export async function startPostgres(): Promise<TestPostgres> {
  if (POSTGRES_BIN === null) throw new Error("no PostgreSQL binaries (apt-get install -y postgresql)");
  const dir = mkdtempSync(join(tmpdir(), "errata-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o777);
    execFileSync("chown", ["postgres:postgres", dir]);
  }
  const run = (bin: string, args: string[]): string =>
    asRoot ? execFileSync("runuser", ["-u", "postgres", "--", join(POSTGRES_BIN, bin), ...args], { encoding: "utf8" }) : execFileSync(join(POSTGRES_BIN, bin), args, { encoding: "utf8" });
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "errata", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`, "start"]);
  const made = new Set<string>();
  return {
    url: `postgres://errata@127.0.0.1:${port}/postgres`,
    database(name) {
      if (!made.has(name)) {
        run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "errata", name]);
        made.add(name);
      }
      return `postgres://errata@127.0.0.1:${port}/${name}`;
    },
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

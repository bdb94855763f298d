// runChild (test/helpers/child.ts), which starts its children from a small spawner process
// (test/helpers/spawner.cjs): what it hands back is the child's own exit code, output, folder,
// environment and input, a signal as 128 + its number, a hang killed with its process group,
// and a file that cannot start as a rejection.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runChild } from "./child.js";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "errata-child-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("runChild", () => {
  it("hands back the child's exit code and output, run in the given folder with the given environment and input", async () => {
    const r = await runChild("/bin/sh", ["-c", 'pwd; echo "$ONLY_HERE"; cat; echo oops >&2; exit 3'], { cwd: dir, env: { ONLY_HERE: "x-1", PATH: "/usr/bin:/bin" }, input: "from stdin\n" });
    expect(r).toMatchObject({ code: 3, stdout: `${dir}\nx-1\nfrom stdin\n`, stderr: "oops\n", hung: false });
    expect(r.ms).toBeGreaterThanOrEqual(0);
  });

  it("runs children at once, each with its own result", async () => {
    const rs = await Promise.all([1, 2, 3, 4].map((n) => runChild("/bin/sh", ["-c", `sleep 0.0${n}; echo ${n}; exit ${n}`], { cwd: dir })));
    expect(rs.map((r) => [r.code, r.stdout])).toEqual([[1, "1\n"], [2, "2\n"], [3, "3\n"], [4, "4\n"]]);
  });

  it("a child killed by a signal exits 128 + its number, as a shell reports it", async () => {
    expect((await runChild("/bin/sh", ["-c", "kill -TERM $$"], { cwd: dir })).code).toBe(143);
  });

  it("a child still running at its hang bound is killed with everything it started: code 124, hung, its output so far", async () => {
    const r = await runChild("/bin/sh", ["-c", `echo started; sleep 30 & echo $! > ${dir}/grandchild; wait`], { cwd: dir, hangMs: 300 });
    expect(r).toMatchObject({ code: 124, hung: true, stdout: "started\n" });
    expect(r.stderr).toContain("[killed: still running after 300 ms, taken for hung]");
    const grandchild = Number((await runChild("/bin/cat", [`${dir}/grandchild`], { cwd: dir })).stdout);
    // Gone, or a zombie waiting for init to reap it (killed, with no parent left to wait for it).
    const state = (await runChild("/bin/sh", ["-c", `ps -o stat= -p ${grandchild} || true`], { cwd: dir })).stdout.trim();
    expect(state === "" || state.startsWith("Z"), `the grandchild ${grandchild} is still running (${state})`).toBe(true);
  });

  it("a file that cannot start rejects with the system's error", async () => {
    await expect(runChild(join(dir, "no-such-program"), [], { cwd: dir })).rejects.toMatchObject({ code: "ENOENT" });
  });
});

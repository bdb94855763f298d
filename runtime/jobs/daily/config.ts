import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { badInput } from "../../../core/errors.js";
import { DailyConfigSchema, type DailyConfig } from "../../../schemas/daily.js";
import type { Erratum } from "../../../schemas/erratum.js";
import type { ErrataPaths } from "../../paths.js";

/**
 * Loads the daily config (`<ledgerDir>/daily.json`, all keys optional) and resolves the
 * folders it names. A file that is not valid JSON or not the schema is bad input (exit 2):
 * the owner wrote it and should hear what is wrong, not get silent defaults.
 *
 * Example: no file, env `{ERRATA_HOST_DIR: "/srv/host"}` -> `{config: <defaults>, hostDir: "/srv/host",
 * transcriptsRoot: "~/.claude/projects"}`.
 */
export interface ResolvedDailyConfig {
  config: DailyConfig;
  hostDir: string | null;
  transcriptsRoot: string;
  openaiKey: string | null;
}

export function loadDailyConfig(paths: ErrataPaths, env: Record<string, string | undefined>, cwd: string): ResolvedDailyConfig {
  const file = join(paths.ledgerDir, "daily.json");
  let raw: unknown = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      throw badInput(`cannot read ${file}`, "a JSON object", (err as Error).message);
    }
  }
  const parsed = DailyConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badInput(`invalid ${file}`, "a daily-config/1 object", `${issue?.path.join(".") ?? ""}: ${issue?.message ?? "?"}`);
  }
  const config = parsed.data;
  const hostEnv = env["ERRATA_HOST_DIR"];
  const hostDir = hostEnv ? resolve(cwd, hostEnv) : config.host_dir !== null ? resolve(paths.ledgerDir, config.host_dir) : null;
  const rootEnv = env["ERRATA_TRANSCRIPTS_ROOT"];
  const home = env["HOME"] ?? homedir();
  const transcriptsRoot = rootEnv
    ? resolve(cwd, rootEnv)
    : config.transcripts_root !== null
      ? resolve(paths.ledgerDir, config.transcripts_root)
      : join(home, ".claude", "projects");
  const keyName = config.openai?.api_key_env ?? "OPENAI_API_KEY";
  const key = config.openai ? (env[keyName] ?? null) : null;
  return { config, hostDir, transcriptsRoot, openaiKey: key && key.length > 0 ? key : null };
}

export const TENANT_SOURCES: readonly string[] = ["customer", "user"];

/** True when the erratum came from a tenant (an app) rather than this install. */
export function isTenantRow(e: Pick<Erratum, "instance" | "source">): boolean {
  return e.instance.startsWith("tenant:") || TENANT_SOURCES.includes(e.source);
}

export function isAuthorizedTenant(e: Pick<Erratum, "instance" | "source">, config: DailyConfig): boolean {
  return !isTenantRow(e) || config.authorized_tenants.includes(e.instance);
}

/**
 * Finds the instruction files the assistant loads, the way Claude Code resolves them, and
 * reads them: managed policy files, `~/.claude/CLAUDE.md` and `~/.claude/rules/*.md`, the
 * project's `CLAUDE.md` or `.claude/CLAUDE.md`, `.claude/rules/**\/*.md` (a `paths:`
 * frontmatter makes a rule path-scoped), `CLAUDE.local.md`, `CLAUDE.md` files in subfolders
 * (read on demand, scoped to their folder), `AGENTS.md` files and other assistants' rule files
 * (`.ai/rules/`, `.agents/rules/`, `.cursor/rules/`, `.github/copilot-instructions.md`,
 * `GEMINI.md`, `.windsurfrules`: indexed as not loaded; Claude Code reads them only when
 * imported), hookify rule files (`.claude/hookify.*.local.md`, checks rather than text),
 * `@path` imports up to four hops from the file that names them, and any file named in the
 * config.
 *
 * Problems never stop the walk: a missing or unreadable file, a circular import or a file over
 * the size limit is reported on its source and the rest is indexed.
 *
 * Example: `discoverSources({root: "/p", home: null, managed: [], extra: []})` for a project
 * with CLAUDE.md importing @AGENTS.md -> sources "claude" (project, always) and "agents"
 * (import, always, imported_by "claude").
 */
import { readdirSync, readFileSync, statSync, type Dirent } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { RuleLoad, RuleSourceKind } from "../../schemas/rules.js";
import { slug } from "./ids.js";
import { parseInstructionFile, type ParsedFile } from "./units.js";

/** Claude Code does not load a memory file larger than this. */
export const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
export const MAX_IMPORT_HOPS = 4;
/** Folders never walked for nested instruction files. */
const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "build", "target", "vendor", ".venv", "venv", "__pycache__", ".next", "coverage"]);
const MAX_WALK_DEPTH = 12;

export interface SourceOptions {
  root: string;
  /**
   * The working folder sessions of this project run in, when the files were checked out
   * elsewhere (a copy, a fixture); default the root. Coverage asks a failure only about the
   * rules of the project its session ran in (and the user's and managed files).
   */
  project?: string;
  /** Put before every source slug of this root (several projects in one index). */
  prefix?: string;
  /**
   * Slugs an earlier index gave, by `<project>\0<path>` (project "" for the user's and managed
   * files), kept so that a rule's id never moves when other projects are indexed beside it;
   * and slugs other sources of the index hold (never given again).
   */
  slugs?: { reuse: ReadonlyMap<string, string>; taken: ReadonlySet<string> };
  /** Home folder for `~/.claude/...` and `@~/` imports; null skips the user's files. */
  home: string | null;
  /** Managed policy files (e.g. /etc/claude-code/CLAUDE.md); missing ones are skipped silently. */
  managed: readonly string[];
  /** Files named in Errata's config; a missing one is a problem. */
  extra: readonly string[];
  maxImportHops?: number;
  maxBytes?: number;
  /**
   * Folders below the root that are projects of their own in the index (another root, or one an
   * earlier build indexed): their files belong to that project, under its ids, and are not read
   * again as nested files of this root (a build in ~ would index ~/code/app's CLAUDE.md twice).
   */
  ownProjects?: readonly string[];
}

export interface LoadedSource {
  source: string;
  abs: string;
  path: string;
  kind: RuleSourceKind;
  load: RuleLoad;
  scope: string[] | null;
  imported_by: string | null;
  /** The working folder the source applies to; null for the user's and managed files (every project). */
  project: string | null;
  bytes: number;
  /** Parsed content, or null when the file could not be read or is over the limit. */
  parsed: ParsedFile | null;
  problems: string[];
}

/** The managed policy file's usual place on this platform. */
export function defaultManagedFiles(platform: NodeJS.Platform): string[] {
  if (platform === "darwin") return ["/Library/Application Support/ClaudeCode/CLAUDE.md"];
  if (platform === "win32") return ["C:\\Program Files\\ClaudeCode\\CLAUDE.md"];
  return ["/etc/claude-code/CLAUDE.md"];
}

function exists(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** A folder's entries in name order; none when it cannot be read (a missing folder is no source). */
function sortedEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** Rule folders of other assistants and shared conventions, below a project root. */
const OTHER_RULE_DIRS = [".ai/rules", ".agents/rules", ".cursor/rules"];
/** Single instruction files of other assistants, at a project root. */
const OTHER_RULE_FILES = [".github/copilot-instructions.md", "GEMINI.md", ".windsurfrules"];

function mdFilesUnder(dir: string, exts: readonly string[] = [".md"]): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number): void => {
    for (const e of sortedEntries(d)) {
      const p = join(d, e.name);
      if (e.isDirectory() && depth < MAX_WALK_DEPTH) walk(p, depth + 1);
      else if (e.isFile() && exts.some((x) => e.name.endsWith(x))) out.push(p);
    }
  };
  walk(dir, 0);
  return out;
}

/** Folders below the root (not the root) that hold a nested instruction file, in sorted order. */
function nestedFiles(root: string, ownProjects: ReadonlySet<string> = new Set()): Array<{ abs: string; dir: string; name: string }> {
  const out: Array<{ abs: string; dir: string; name: string }> = [];
  const walk = (d: string, depth: number): void => {
    if (d !== root && ownProjects.has(resolve(d))) return;
    const entries = sortedEntries(d);
    if (d !== root) {
      for (const name of ["CLAUDE.md", "CLAUDE.local.md", "AGENTS.md"]) {
        if (entries.some((e) => e.isFile() && e.name === name)) out.push({ abs: join(d, name), dir: d, name });
      }
      if (entries.some((e) => e.isDirectory() && e.name === ".claude") && exists(join(d, ".claude", "CLAUDE.md"))) {
        out.push({ abs: join(d, ".claude", "CLAUDE.md"), dir: d, name: ".claude/CLAUDE.md" });
      }
    }
    if (depth >= MAX_WALK_DEPTH) return;
    for (const e of entries) {
      if (!e.isDirectory() || SKIP_DIRS.has(e.name) || (e.name.startsWith(".") && e.name !== ".claude")) continue;
      if (e.name === ".claude") continue;
      walk(join(d, e.name), depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

/** A relative, home or absolute path, or a name with a text file's extension. */
function looksLikeFile(spec: string): boolean {
  return /^(?:\.{1,2}\/|~\/|\/)/.test(spec) || /\.(?:md|mdx|markdown|txt|rst|json|ya?ml|toml)$/i.test(spec);
}

function posix(p: string): string {
  return p.split(sep).join("/");
}

export class SourceWalk {
  private readonly byAbs = new Map<string, LoadedSource>();
  private readonly slugs = new Set<string>();
  readonly sources: LoadedSource[] = [];
  private readonly maxHops: number;
  private readonly maxBytes: number;

  constructor(private readonly opts: SourceOptions) {
    this.maxHops = opts.maxImportHops ?? MAX_IMPORT_HOPS;
    this.maxBytes = opts.maxBytes ?? MAX_SOURCE_BYTES;
  }

  /** A display path and an id slug for a file. */
  private names(abs: string, kind: RuleSourceKind): { path: string; source: string } {
    const root = resolve(this.opts.root);
    const home = this.opts.home === null ? null : resolve(this.opts.home);
    const inRoot = abs === root || abs.startsWith(root + sep);
    const shared = kind === "user" || kind === "user-rules" || kind === "managed";
    let path: string;
    let base: string;
    // The user's own files are named from the home folder even when the root is the home (or
    // holds it): a build in ~ must not rename ~/.claude/CLAUDE.md's rules.
    if (inRoot && !(shared && home !== null && abs.startsWith(home + sep))) {
      path = posix(relative(root, abs));
      base = path.replace(/\.md$/i, "");
    } else if (home !== null && abs.startsWith(home + sep)) {
      path = `~/${posix(relative(home, abs))}`;
      base = `user-${posix(relative(join(home, ".claude"), abs)).replace(/\.md$/i, "")}`;
    } else {
      path = posix(abs);
      base = `${kind === "managed" ? "managed" : "ext"}-${basename(dirname(abs))}-${basename(abs).replace(/\.md$/i, "")}`;
    }
    const kept = this.opts.slugs?.reuse.get(`${shared ? "" : resolve(this.opts.project ?? this.opts.root)}\u0000${path}`);
    if (kept !== undefined && !this.slugs.has(kept)) {
      this.slugs.add(kept);
      return { path, source: kept };
    }
    let source = slug(`${shared ? "" : (this.opts.prefix ?? "")}${base.replace(/^\.+/, "")}`) || "source";
    if (this.slugs.has(source) || this.opts.slugs?.taken.has(source)) {
      let n = 2;
      while (this.slugs.has(`${source}-${n}`) || this.opts.slugs?.taken.has(`${source}-${n}`)) n++;
      source = `${source}-${n}`;
    }
    this.slugs.add(source);
    return { path, source };
  }

  /** Adds one file (and what it imports); `quiet` skips a missing file without a problem. */
  add(absIn: string, kind: RuleSourceKind, load: RuleLoad, scope: string[] | null, opts: { quiet?: boolean; importedBy?: LoadedSource; chain?: string[] } = {}): LoadedSource | null {
    const abs = resolve(absIn);
    const known = this.byAbs.get(abs);
    if (known !== undefined) return known;
    let size = 0;
    const problems: string[] = [];
    let text: string | null = null;
    try {
      const st = statSync(abs);
      if (!st.isFile()) {
        if (opts.quiet === true) return null;
        problems.push(`not a regular file (${st.isDirectory() ? "a directory" : "another kind"})`);
      } else {
        size = st.size;
        if (size > this.maxBytes) problems.push(`over Claude Code's ${this.maxBytes / 1048576} MiB limit (${size} bytes): not loaded`);
        else text = readFileSync(abs, "utf8");
      }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && opts.quiet === true) return null;
      problems.push(code === "ENOENT" ? "not found" : `unreadable (${code ?? (err as Error).message})`);
    }
    const { path, source } = this.names(abs, kind);
    const hookify = /^hookify\..+\.local\.md$/.test(basename(abs));
    const parsed = text === null ? null : parseInstructionFile(text, { hookify });
    const entry: LoadedSource = {
      source,
      abs,
      path,
      kind,
      load: parsed === null ? "not-loaded" : load,
      scope: parsed?.paths ?? scope,
      imported_by: opts.importedBy?.source ?? null,
      project: kind === "user" || kind === "user-rules" || kind === "managed" ? null : (opts.importedBy?.project !== undefined ? opts.importedBy.project : resolve(this.opts.project ?? this.opts.root)),
      bytes: size,
      parsed,
      problems: [...problems, ...(parsed?.problems ?? [])],
    };
    if (parsed !== null && parsed.paths !== null && (kind === "project-rules" || kind === "user-rules")) entry.load = "path-scoped";
    this.byAbs.set(abs, entry);
    this.sources.push(entry);
    if (parsed !== null) this.followImports(entry, parsed.imports, [...(opts.chain ?? []), abs]);
    return entry;
  }

  private followImports(from: LoadedSource, imports: readonly string[], chain: string[]): void {
    for (const spec of imports) {
      const target = spec.startsWith("~/")
        ? this.opts.home === null
          ? null
          : join(this.opts.home, spec.slice(2))
        : isAbsolute(spec)
          ? spec
          : resolve(dirname(from.abs), spec);
      if (target === null) {
        from.problems.push(`@${spec}: a home import with no home folder set`);
        continue;
      }
      const abs = resolve(target);
      if (chain.includes(abs)) {
        const names = [...chain, abs].map((p) => this.byAbs.get(p)?.path ?? posix(p));
        from.problems.push(`circular @import: ${names.join(" -> ")}`);
        continue;
      }
      if (chain.length > this.maxHops) {
        from.problems.push(`@${spec}: more than ${this.maxHops} import hops, not followed`);
        continue;
      }
      if (!exists(abs)) {
        // Claude Code skips an import that names no file; so does the index, and it says so
        // when the name looks like a file (a handle such as "@jlowin" or a package scope is not).
        if (looksLikeFile(spec)) from.problems.push(`@${spec}: not found`);
        continue;
      }
      const known = this.byAbs.get(abs);
      if (known !== undefined) {
        // Indexed already (e.g. AGENTS.md found directly): it is read whenever its importer is.
        if (known.load === "not-loaded" && known.parsed !== null) {
          known.load = from.load;
          known.imported_by ??= from.source;
        }
        continue;
      }
      this.add(abs, "import", from.load, from.scope, { importedBy: from, chain });
    }
  }
}

/** Every source of a project, in Claude Code's load order (managed, user, project, local), then nested files, hookify rules and config sources. */
export function discoverSources(opts: SourceOptions): LoadedSource[] {
  const walk = new SourceWalk(opts);
  const root = resolve(opts.root);
  for (const m of opts.managed) walk.add(m, "managed", "always", null, { quiet: true });
  if (opts.home !== null) {
    walk.add(join(opts.home, ".claude", "CLAUDE.md"), "user", "always", null, { quiet: true });
    for (const f of mdFilesUnder(join(opts.home, ".claude", "rules"))) walk.add(f, "user-rules", "always", null);
  }
  walk.add(join(root, "CLAUDE.md"), "project", "always", null, { quiet: true });
  walk.add(join(root, ".claude", "CLAUDE.md"), "project", "always", null, { quiet: true });
  for (const f of mdFilesUnder(join(root, ".claude", "rules"))) walk.add(f, "project-rules", "always", null);
  walk.add(join(root, "CLAUDE.local.md"), "local", "always", null, { quiet: true });
  walk.add(join(root, "AGENTS.md"), "agents", "not-loaded", null, { quiet: true });
  for (const n of nestedFiles(root, new Set((opts.ownProjects ?? []).map((p) => resolve(p))))) {
    const scope = [`${posix(relative(root, n.dir))}/**`];
    if (n.name === "AGENTS.md") walk.add(n.abs, "agents", "not-loaded", scope);
    else walk.add(n.abs, "subfolder", "on-demand", scope);
  }
  let hookify: string[] = [];
  try {
    hookify = readdirSync(join(root, ".claude")).filter((n) => /^hookify\..+\.local\.md$/.test(n)).sort();
  } catch {
    hookify = [];
  }
  for (const n of hookify) walk.add(join(root, ".claude", n), "hookify", "check", null);
  for (const e of opts.extra) walk.add(resolve(root, e), "config", "always", null);
  // Other assistants' instruction files (Cursor, Copilot, Gemini, shared `.ai/`/`.agents/`
  // rule folders): rules the owner wrote for an assistant that Claude Code never reads unless
  // a loaded file imports them. Indexed last, as not loaded, so that a correction against one
  // is diagnosed as "not in view" and no earlier source's id moves.
  for (const dir of OTHER_RULE_DIRS) for (const f of mdFilesUnder(join(root, dir), [".md", ".mdc"])) walk.add(f, "agents", "not-loaded", null);
  for (const name of OTHER_RULE_FILES) walk.add(join(root, name), "agents", "not-loaded", null, { quiet: true });
  return walk.sources;
}

/**
 * Sources from texts in memory (a generated project, a test), read as a project's CLAUDE.md
 * and `.claude/rules/*.md` would be; `@imports` are not followed.
 */
export function sourcesFromTexts(files: ReadonlyArray<{ path: string; text: string }>): LoadedSource[] {
  const slugs = new Set<string>();
  return files.map((f) => {
    let source = slug(f.path.replace(/\.md$/i, "").replace(/^\.+/, "")) || "source";
    for (let n = 2; slugs.has(source); n++) source = `${slug(f.path)}-${n}`;
    slugs.add(source);
    const parsed = parseInstructionFile(f.text, { hookify: /^hookify\..+\.local\.md$/.test(basename(f.path)) });
    const rulesFile = f.path.startsWith(".claude/rules/");
    return {
      source,
      abs: f.path,
      path: f.path,
      kind: rulesFile ? "project-rules" : "project",
      load: rulesFile && parsed.paths !== null ? "path-scoped" : "always",
      scope: parsed.paths,
      imported_by: null,
      project: null,
      bytes: Buffer.byteLength(f.text),
      parsed,
      problems: parsed.problems,
    } satisfies LoadedSource;
  });
}

/**
 * Sources of several projects in one index: each root's files (slugs prefixed with the
 * project's folder name when there is more than one), the user's and managed files once.
 *
 * Example: `discoverProjects([{root: "/src/a"}, {root: "/src/b"}], {home: null, managed: [], extra: []})`
 * -> sources "a-claude", "b-claude", ...
 */
export function discoverProjects(
  projects: ReadonlyArray<{ root: string; project?: string }>,
  shared: { home: string | null; managed: readonly string[]; extra: readonly string[]; otherProjects?: number; slugs?: SourceOptions["slugs"]; ownProjects?: readonly string[] },
): LoadedSource[] {
  const out: LoadedSource[] = [];
  const seen = new Set<string>();
  const taken = new Set(shared.slugs?.taken ?? []);
  projects.forEach((p, i) => {
    const prefix = projects.length + (shared.otherProjects ?? 0) > 1 ? `${basename(resolve(p.project ?? p.root))}-` : "";
    const found = discoverSources({
      ...(shared.slugs ? { slugs: { reuse: shared.slugs.reuse, taken } } : {}),
      root: p.root,
      ...(p.project === undefined ? {} : { project: p.project }),
      prefix,
      home: i === 0 ? shared.home : null,
      managed: i === 0 ? shared.managed : [],
      extra: shared.extra,
      // Every other project of the index, and the other roots of this build, are their own.
      ownProjects: [...(shared.ownProjects ?? []), ...projects.flatMap((q, j) => (j === i ? [] : [q.root, ...(q.project === undefined ? [] : [q.project])]))],
    });
    for (const s of found) {
      if (seen.has(s.abs)) continue;
      seen.add(s.abs);
      taken.add(s.source);
      out.push(s);
    }
  });
  return out;
}

/**
 * Rule units of one instruction file, from a CommonMark/GFM syntax tree (micromark through
 * mdast; frontmatter parsed as YAML). A unit is a top-level bullet or numbered item (its
 * nested items belong to it), a table row (the header row is not a rule), a paragraph, a
 * block quote or a fenced chunk; headings are not units but name the section each unit sits
 * in. A hookify rule file is one unit: its message, with the rule's name and action kept.
 *
 * Pure: text in, units out. Example: for "# Style\n\n- Use tabs\n- Never use npm\n" ->
 * `[{kind: "bullet", heading_path: ["Style"], text: "Use tabs", line_start: 3, …},
 *   {kind: "bullet", heading_path: ["Style"], text: "Never use npm", line_start: 4, …}]`.
 */
import type { Nodes, Root, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { frontmatterFromMarkdown } from "mdast-util-frontmatter";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString } from "mdast-util-to-string";
import { frontmatter } from "micromark-extension-frontmatter";
import { gfm } from "micromark-extension-gfm";
import { parse as parseYaml } from "yaml";

export type UnitKind = "bullet" | "numbered" | "table-row" | "paragraph" | "quote" | "code" | "hookify";

export interface RawUnit {
  kind: UnitKind;
  /** Texts of the headings above the unit, outermost first. */
  heading_path: string[];
  /** The unit's markdown as written. */
  text: string;
  /** A table row's header row (what its cells mean), else null; read by retrieval, not hashed. */
  context: string | null;
  /** 1-based lines, inclusive. */
  line_start: number;
  line_end: number;
}

export interface ParsedFile {
  units: RawUnit[];
  /** The `paths:` scope from the frontmatter (globs), or null when the file applies everywhere. */
  paths: string[] | null;
  /** Frontmatter fields as parsed (empty when there is none or it is not a YAML mapping). */
  frontmatter: Record<string, unknown>;
  /** `@path` imports in text (not inside code), in order of appearance. */
  imports: string[];
  /** Problems met (frontmatter that is not YAML, ...), for the index's report. */
  problems: string[];
  /** Lines in the file. */
  lines: number;
}

function tree(text: string): Root {
  return fromMarkdown(text, {
    extensions: [gfm(), frontmatter(["yaml"])],
    mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(["yaml"])],
  });
}

function slice(text: string, node: Nodes): string {
  const s = node.position?.start.offset;
  const e = node.position?.end.offset;
  return s === undefined || e === undefined ? toString(node) : text.slice(s, e);
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

/**
 * `@path` imports the way Claude Code reads them: `@` at the start of a word followed by a
 * path, in text nodes only (never in inline code or code blocks); e-mail addresses are not
 * imports because the `@` is inside a word there.
 */
function importsOf(root: Root): string[] {
  const out: string[] = [];
  const visit = (node: Nodes): void => {
    if (node.type === "text") {
      for (const m of node.value.matchAll(/(?:^|[\s(])@((?:~\/|\.{0,2}\/)?[A-Za-z0-9_.\-/]+[A-Za-z0-9_\-/])/g)) {
        if (m[1] !== undefined) out.push(m[1]);
      }
      return;
    }
    if ("children" in node) for (const c of node.children) visit(c as Nodes);
  };
  visit(root);
  return out;
}

function readFrontmatter(root: Root, problems: string[]): Record<string, unknown> {
  const first = root.children[0];
  if (first?.type !== "yaml") return {};
  try {
    const data: unknown = parseYaml(first.value);
    if (data !== null && typeof data === "object" && !Array.isArray(data)) return data as Record<string, unknown>;
    problems.push("frontmatter is not a YAML mapping");
  } catch (err) {
    problems.push(`frontmatter is not YAML (${(err as Error).message.split("\n")[0]})`);
  }
  return {};
}

function pathsOf(fm: Record<string, unknown>): string[] | null {
  const p = fm["paths"];
  if (typeof p === "string") return p.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (Array.isArray(p)) {
    const globs = p.filter((s): s is string => typeof s === "string" && s.trim().length > 0).map((s) => s.trim());
    return globs.length > 0 ? globs : null;
  }
  return null;
}

/** The node's last line: a node that ends at the start of a line (a block running to the end of the file) ends on the line before. */
function lastLine(node: Nodes): number {
  const p = node.position;
  if (p === undefined) return 0;
  return p.end.column === 1 && p.end.line > p.start.line ? p.end.line - 1 : p.end.line;
}

/** A paragraph that only imports (`@AGENTS.md`, `See @README.md`) is a pointer, not a rule. */
function onlyImports(t: string): boolean {
  const rest = t.replace(/(?:^|[\s(])@\S+/g, " ").replace(/\b(see|follow|read|also|and|please)\b/gi, " ");
  return t.includes("@") && !/[\p{L}\p{N}]{2,}/u.test(rest);
}

/** Units of a markdown instruction file. `hookify` makes the whole body one unit. */
export function parseInstructionFile(text: string, opts: { hookify?: boolean } = {}): ParsedFile {
  const root = tree(text);
  const problems: string[] = [];
  const fm = readFrontmatter(root, problems);
  const units: RawUnit[] = [];
  const lines = lineCount(text);
  if (opts.hookify === true) {
    const body = root.children.filter((c) => c.type !== "yaml");
    const first = body[0];
    const last = body[body.length - 1];
    const start = first?.position?.start.offset ?? text.length;
    const end = last?.position?.end.offset ?? text.length;
    const name = typeof fm["name"] === "string" ? fm["name"] : "";
    units.push({
      kind: "hookify",
      heading_path: name ? [name] : [],
      text: text.slice(start, end).trim(),
      context: null,
      line_start: first?.position?.start.line ?? 1,
      line_end: last?.position?.end.line ?? Math.max(1, lines),
    });
    return { units, paths: pathsOf(fm), frontmatter: fm, imports: [], problems, lines };
  }
  const headings: Array<{ depth: number; text: string }> = [];
  const push = (kind: UnitKind, node: Nodes, unitText: string, context: string | null = null): void => {
    const t = unitText.trim();
    if (t.length === 0 || (kind === "paragraph" && onlyImports(t))) return;
    units.push({
      kind,
      heading_path: headings.map((h) => h.text),
      text: t,
      context,
      line_start: node.position?.start.line ?? 0,
      line_end: lastLine(node),
    });
  };
  const visitBlock = (node: RootContent): void => {
    switch (node.type) {
      case "heading": {
        while (headings.length > 0 && (headings[headings.length - 1]?.depth ?? 0) >= node.depth) headings.pop();
        headings.push({ depth: node.depth, text: toString(node).trim() });
        return;
      }
      case "list":
        for (const item of node.children) push(node.ordered === true ? "numbered" : "bullet", item, slice(text, item));
        return;
      case "table": {
        const [header, ...rows] = node.children;
        for (const row of rows) push("table-row", row, slice(text, row), header === undefined ? null : slice(text, header).trim());
        return;
      }
      case "paragraph":
        push("paragraph", node, slice(text, node));
        return;
      case "blockquote":
        push("quote", node, slice(text, node));
        return;
      case "code":
        push("code", node, slice(text, node));
        return;
      default:
        // yaml (frontmatter), html (mostly comments), thematic breaks and link definitions
        // hold no rule of their own.
        return;
    }
  };
  for (const child of root.children) visitBlock(child);
  return { units, paths: pathsOf(fm), frontmatter: fm, imports: importsOf(root), problems, lines };
}

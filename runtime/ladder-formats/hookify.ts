/**
 * hookify's rule files (`.claude/hookify.<name>.local.md`) read as checks, so an owner who
 * already wrote hookify rules brings them to the check runner unchanged.
 *
 * The frontmatter is read with the same small parser hookify itself uses (top-level
 * `key: value`, `true`/`false`, surrounding quotes stripped, a list of `- field: ...`
 * items with indented continuation lines, or inline `- a: b, c: d`), not a full YAML
 * parser: a file then means here what it means in hookify (a quoted "\\s" stays two
 * backslashes, as the owner tested it), and the tool path does not load a YAML library.
 *
 * Mapping: event bash -> tool Bash, file -> Edit, Write, MultiEdit, all -> every tool (but a
 * condition on a field the tool does not send never holds); `tool_matcher` ("Edit|Write", "*")
 * overrides; a simple `pattern` reads command (bash), new_text (file) or content (else);
 * action block -> deny, warn -> warn (as additionalContext, which reaches the model; hookify
 * shows it to the owner only); `enabled: false` -> not loaded; events stop and prompt, and
 * rules on user_prompt/reason/transcript, are not tool rules and are skipped. A file with no
 * frontmatter, no condition, an unknown operator or field, or a pattern that is not a regex is
 * refused (CheckFileError), where hookify would skip it or never match.
 *
 * Example: "---\nname: block-dangerous-rm\nenabled: true\nevent: bash\npattern: rm\\s+-rf\naction: block\n---\nCareful."
 * -> {id: "hookify:block-dangerous-rm", tools: ["Bash"], conditions: [{field: "command", operator: "regex_match", pattern: "rm\\s+-rf"}], action: "deny", ...}.
 */
import { CHECK_FIELDS, CHECK_OPERATORS, CheckFileError, compileRegex, type Check, type CheckCondition, type CheckField, type CheckOperator } from "./checks.js";

type Front = Record<string, string | boolean | Array<string | Record<string, string>>>;

const unquote = (s: string): string => s.replace(/^["']+|["']+$/g, "");

/** hookify's extract_frontmatter, line for line in meaning; null when there is none. */
export function hookifyFrontmatter(text: string): { front: Front; body: string } | null {
  if (!text.startsWith("---")) return null;
  const parts = text.split("---");
  if (parts.length < 3) return null;
  const frontText = parts[1]!;
  const body = parts.slice(2).join("---").trim();
  const front: Front = {};
  let key: string | null = null;
  let list: Array<string | Record<string, string>> = [];
  let item: Record<string, string> | null = null;
  let inList = false;
  const close = (): void => {
    if (inList && key !== null) {
      if (item) list.push(item);
      front[key] = list;
    }
    inList = false;
    item = null;
    list = [];
  };
  for (const line of frontText.split("\n")) {
    const stripped = line.trim();
    if (stripped === "" || stripped.startsWith("#")) continue;
    const indent = line.length - line.trimStart().length;
    if (indent === 0 && line.includes(":") && !stripped.startsWith("-")) {
      close();
      const at = line.indexOf(":");
      const k = line.slice(0, at).trim();
      const value = line.slice(at + 1).trim();
      if (value === "") {
        key = k;
        inList = true;
      } else {
        const v = unquote(value);
        front[k] = v.toLowerCase() === "true" ? true : v.toLowerCase() === "false" ? false : v;
      }
    } else if (stripped.startsWith("-") && inList) {
      if (item) list.push(item);
      item = null;
      const text2 = stripped.slice(1).trim();
      if (text2.includes(":") && text2.includes(",")) {
        const d: Record<string, string> = {};
        for (const part of text2.split(",")) {
          const at = part.indexOf(":");
          if (at >= 0) d[part.slice(0, at).trim()] = unquote(part.slice(at + 1).trim());
        }
        list.push(d);
      } else if (text2.includes(":")) {
        const at = text2.indexOf(":");
        item = { [text2.slice(0, at).trim()]: unquote(text2.slice(at + 1).trim()) };
      } else list.push(unquote(text2));
    } else if (indent > 2 && item !== null && line.includes(":")) {
      const at = stripped.indexOf(":");
      item[stripped.slice(0, at).trim()] = unquote(stripped.slice(at + 1).trim());
    }
  }
  close();
  return { front, body };
}

const FILE_TOOLS = ["Edit", "Write", "MultiEdit"];
/** hookify fields that exist only on other events (prompt, stop). */
const NON_TOOL_FIELDS = new Set(["user_prompt", "prompt", "reason", "transcript"]);

/**
 * One hookify file as a check, null when it is not a tool rule or is disabled; throws
 * CheckFileError when hookify would skip it as malformed or never match it.
 */
export function hookifyCheck(text: string, file: string): Check | null {
  const parsed = hookifyFrontmatter(text);
  if (parsed === null) throw new CheckFileError(file, "YAML frontmatter between --- lines (hookify's rule format)", `${JSON.stringify(text.slice(0, 40))}`);
  const { front, body } = parsed;
  const str = (k: string): string | null => (typeof front[k] === "string" ? (front[k] as string) : null);
  if (front["enabled"] === false) return null;
  const event = str("event") ?? "all";
  if (event === "stop" || event === "prompt") return null;
  if (event !== "bash" && event !== "file" && event !== "all") throw new CheckFileError(file, "event bash, file, stop, prompt or all", event);
  const name = str("name") ?? "unnamed";
  const rawConds = Array.isArray(front["conditions"]) ? front["conditions"] : null;
  let conds: Array<Record<string, string>>;
  if (rawConds !== null && rawConds.length > 0) {
    conds = rawConds.map((c, i) => {
      if (typeof c === "string") throw new CheckFileError(file, `conditions[${i}] as "- field: ..., operator: ..., pattern: ..."`, JSON.stringify(c));
      return c;
    });
  } else if (str("pattern") !== null) {
    conds = [{ field: str("field") ?? (event === "bash" ? "command" : event === "file" ? "new_text" : "content"), operator: "regex_match", pattern: str("pattern")! }];
  } else throw new CheckFileError(file, "a pattern or a non-empty conditions list (hookify never matches a rule without one)", "neither");
  if (conds.some((c) => NON_TOOL_FIELDS.has(c["field"] ?? ""))) return null;
  const conditions: CheckCondition[] = conds.map((c, i) => {
    const field = c["field"] ?? "";
    const operator = c["operator"] ?? "regex_match";
    if (!(CHECK_FIELDS as readonly string[]).includes(field)) throw new CheckFileError(file, `conditions[${i}].field, one of ${CHECK_FIELDS.join(", ")}`, JSON.stringify(field));
    if (!(CHECK_OPERATORS as readonly string[]).includes(operator)) throw new CheckFileError(file, `conditions[${i}].operator, one of ${CHECK_OPERATORS.join(", ")}`, JSON.stringify(operator));
    const pattern = c["pattern"] ?? "";
    if (operator === "regex_match") compileRegex(pattern, file, `${name} conditions[${i}]`);
    return { field: field as CheckField, operator: operator as CheckOperator, pattern };
  });
  const matcher = str("tool_matcher");
  const tools: Check["tools"] = matcher !== null ? (matcher === "*" ? "*" : matcher.split("|")) : event === "bash" ? ["Bash"] : event === "file" ? FILE_TOOLS : "*";
  const action = str("action") ?? "warn";
  if (action !== "warn" && action !== "block") throw new CheckFileError(file, "action warn or block", action);
  return {
    id: `hookify:${name}`,
    rule_id: null,
    tools,
    conditions,
    action: action === "block" ? "deny" : "warn",
    message: body === "" ? `hookify rule ${name} matched` : body,
    mode: "active",
    source: file,
  };
}

/**
 * `errata add`: deliberate feedback from the terminal, with the `/er` grammar. A leading
 * `bug:`, `feature:` or `praise:` picks the kind (default complaint); `--product` marks it
 * as feedback about the product rather than this install. Secrets are redacted and the
 * reporter id pseudonymised before the line is written.
 *
 * Example: `errata add bug: it pushed to main without asking --system assistant`
 * -> `added er-20261130-3fa9c1 (bug, assistant, instance) to errata-2026-11.jsonl`
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { Command, Option } from "commander";
import type { CommandContext } from "../shared/command.js";
import { ErrataError, badInput } from "../../core/errors.js";
import { printJson, println } from "../shared/io.js";
import { ledgerFor, oneLine, parseKind, parseNumber, parseSource, parseTime, rel } from "../shared/ledger.js";
import { attachmentForWrite, isPseudonym, knowProjectValues, loadOrCreateReporterKey, pseudonymize, readReporterKey } from "../../runtime/privacy/index.js";
import { safeAttachmentName, writeAttachment } from "../../runtime/store/index.js";
import { parseErText } from "../../runtime/store/index.js";
import { newErratum } from "../../runtime/store/index.js";
import type { ErratumContext, Links } from "../../schemas/erratum.js";
import { examples } from "../shared/help.js";

/** Shown by a dry run before any key exists: the real pseudonym needs the key, made on the first write. */
const UNKEYED_PSEUDONYM = "rp-0000000000000000";

interface AddOptions {
  complaint?: string;
  system?: string;
  source?: string;
  channel?: string;
  kind?: string;
  product?: boolean;
  rating?: string;
  frustration?: string;
  reporterId?: string;
  reporterRole?: string;
  requested?: string;
  doing?: string;
  response?: string;
  session?: string;
  outputId?: string[];
  component?: string;
  cwd?: string;
  hostVersion?: string;
  model?: string;
  ts?: string;
  attach?: string[];
  dryRun?: boolean;
  json?: boolean;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("add")
    .description("Record one erratum: the person's verbatim words (secrets redacted), with the /er grammar")
    .argument("[words...]", "the complaint; a leading bug:, feature: or praise: picks the kind")
    .option("--complaint <text>", "the complaint text (instead of words)")
    .option("--system <name>", "system it is about: assistant, other, or a name in errata-systems.json", "assistant")
    .option("--source <source>", "who reported: owner, team, customer, user, hook, agent, job, backfill, detected", "owner")
    .option("--channel <channel>", "the door it came through", "terminal")
    .option("--kind <kind>", "complaint, bug, feature-request, correction, directive, praise, question, incident (overrides a tag)")
    .option("--product", "feedback about the product itself (target product) rather than this install")
    .option("--rating <n>", "a rating the person gave, 1-10 (people only; machine sources never carry one)")
    .option("--frustration <n>", "frustration 0-3 from countable signals")
    .option("--reporter-id <id>", "reporter id (an e-mail or name is stored only as a keyed-hash pseudonym)", "owner")
    .option("--reporter-role <role>", "reporter role (default: the source)")
    .option("--requested <text>", "the ask in flight")
    .option("--doing <text>", "the last tool calls, one per line as 'Name: summary'")
    .option("--response <text>", "the end of the reply the person reacted to")
    .option("--session <id>", "session id")
    .addOption(new Option("--output-id <id...>", "ids of outputs delivered since the previous prompt"))
    .option("--component <name>", "the hook, skill, tool or file it is about")
    .option("--cwd <dir>", "working folder of the session")
    .option("--host-version <v>", "version of the host (e.g. Claude Code 2.0.31)")
    .option("--model <name>", "the assistant model that replied")
    .option("--ts <iso>", "capture time if not now (UTC ISO-8601); the id and month follow it")
    // One file per --attach (repeat it for more): a variadic option would swallow the words after it.
    .option("--attach <file>", "copy a text file, secrets redacted, into the attachments folder and link it (repeatable; other files are refused)", (f: string, prev: string[] = []) => [...prev, f])
    .option("--dry-run", "validate and print what would be written; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        "errata add bug: it pushed to main without asking --session 0b7c2d1e",
        "errata add --product feature: a way to undo the last edit",
        "echo 'the whole reply' > reply.txt && errata add --attach reply.txt it ignored the reply --dry-run",
        `errata add 'praise: the migration plan was spot on' --json`,
      ]),
    )
    .action(async (words: string[], opts: AddOptions) => {
      const text = opts.complaint ?? words.join(" ");
      if (opts.complaint !== undefined && words.length > 0) {
        throw badInput("give the complaint once", "words or --complaint", "both");
      }
      const parsed = parseErText(text);
      if (parsed.text === "") throw badInput("nothing to record", "the person's words after any tag", describeEmpty(text));
      const kind = parseKind(opts.kind) ?? parsed.kind;
      const source = parseSource(opts.source) ?? "owner";
      const rating = parseNumber("rating", opts.rating) ?? null;
      const frustration = parseNumber("frustration", opts.frustration, { integer: true }) ?? null;
      const ts = opts.ts !== undefined ? parseTime("ts", opts.ts) : undefined;

      const ledger = ledgerFor(ctx, { fsync: true });
      const paths = ledger.paths;
      // The project's own .env values are scrubbed even if the owner never ran `errata secrets
      // learn` there: the folder it is run in (cli/main.ts), and the session's folder it names.
      if (opts.cwd !== undefined) knowProjectValues(resolve(ctx.io.cwd, opts.cwd));
      const rawReporter = opts.reporterId ?? "owner";
      // The key is created only when something is written: a dry run or bad input leaves no key behind.
      const pseudonymFor = (create: boolean): string => {
        if (isPseudonym(rawReporter)) return rawReporter;
        const key = create ? loadOrCreateReporterKey(paths.stateDir) : readReporterKey(paths.stateDir);
        return key ? pseudonymize(rawReporter, key) : UNKEYED_PSEUDONYM;
      };
      const role = opts.reporterRole ?? source;

      const context: Partial<ErratumContext> = {};
      if (opts.requested !== undefined) context.requested = opts.requested;
      if (opts.doing !== undefined) context.doing = opts.doing;
      if (opts.response !== undefined) context.response_preview = opts.response;
      if (opts.session !== undefined) context.session_id = opts.session;
      if (opts.outputId !== undefined) context.output_ids = opts.outputId;
      if (opts.component !== undefined) context.component = opts.component;
      if (opts.cwd !== undefined) context.cwd = opts.cwd;
      if (opts.hostVersion !== undefined) context.version = opts.hostVersion;
      if (opts.model !== undefined) context.model = opts.model;

      // Redacted copies, or a refusal before anything is written (privacy/attachment.ts).
      const attachments = (opts.attach ?? []).map((file) => {
        let bytes: Buffer;
        try {
          bytes = readFileSync(resolve(ctx.io.cwd, file));
        } catch (err) {
          throw new ErrataError("IO", `cannot read attachment ${file}`, { found: (err as Error).message });
        }
        const a = attachmentForWrite(basename(file), bytes);
        return { ...a, name: safeAttachmentName(a.name) };
      });

      const erratum = newErratum({
        nowMs: ctx.io.now(),
        complaint: parsed.text,
        reporter: { id: pseudonymFor(false), role },
        ...(ts !== undefined ? { ts } : {}),
        system: opts.system ?? "assistant",
        target: opts.product ? "product" : "instance",
        source,
        channel: opts.channel ?? "terminal",
        kind,
        rating,
        frustration,
        context,
      });
      const links: Links = {};
      if (attachments.length > 0) links.attachments = attachments.map((a) => `${erratum.id}/${a.name}`);
      erratum.links = links;

      // Validate fully before anything touches the disk (bad input writes nothing).
      const preview = ledger.append(erratum, { dryRun: true });
      if (!opts.dryRun) {
        erratum.reporter = { ...erratum.reporter, id: pseudonymFor(true) };
        for (const a of attachments) writeAttachment(paths.attachmentsDir, erratum.id, a.name, a.content);
      }
      const outcome = opts.dryRun ? preview : ledger.append(erratum);
      const e = outcome.erratum;
      if (opts.json) {
        printJson(ctx.io, {
          ok: true,
          written: outcome.written,
          file: rel(paths, outcome.file),
          redacted: outcome.redacted,
          recorded: outcome.recorded,
          erratum: e,
        });
        return;
      }
      const verb = opts.dryRun ? "would add" : "added";
      println(ctx.io, `${verb} ${e.id} (${e.kind}, ${e.system}, ${e.target}) to ${rel(paths, outcome.file)}`);
      println(ctx.io, `  "${oneLine(e.complaint, 100)}"`);
      if (outcome.redacted.length > 0) println(ctx.io, `  redacted: ${outcome.redacted.join(", ")}`);
      if (attachments.length > 0) println(ctx.io, `  attachments: ${(e.links.attachments ?? []).join(", ")}`);
      const attachmentKinds = [...new Set(attachments.flatMap((a) => a.kinds))];
      if (attachmentKinds.length > 0) println(ctx.io, `  redacted in attachments: ${attachmentKinds.join(", ")}`);
    });
}

function describeEmpty(text: string): string {
  return text.trim() === "" ? "no words" : `only a tag (${JSON.stringify(text.trim())})`;
}

/**
 * Large attachments live outside the ledger, in `paths.attachmentsDir/<id>/`, and the
 * erratum links them as `links.attachments: ["<id>/<file>"]`. Written before the erratum
 * line, so a link never points at nothing; a crash in between leaves an unlinked folder,
 * never a dangling link. zod-free (the hook writes deep-context attachments).
 *
 * Example: `writeAttachment("/home/u/.local/state/errata/attachments", "er-20261130-3fa9c1",
 * "context.json", "{…}")` -> "er-20261130-3fa9c1/context.json".
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ErrataError } from "../../core/errors.js";

export function safeAttachmentName(name: string): string {
  const base = basename(name).replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "_");
  if (base === "" || base === "_") throw new ErrataError("BAD_INPUT", "bad attachment name", { expected: "a file name", found: JSON.stringify(name) });
  return base.slice(0, 120);
}

/** Writes `content` atomically (temp file + rename) and returns the link to store. */
export function writeAttachment(attachmentsDir: string, id: string, name: string, content: string | Uint8Array): string {
  if (!/^er-\d{8}-[0-9a-f]{6}$/.test(id)) throw new ErrataError("BAD_INPUT", "bad erratum id for an attachment", { expected: "er-YYYYMMDD-xxxxxx", found: JSON.stringify(id) });
  const file = safeAttachmentName(name);
  const dir = join(attachmentsDir, id);
  const made = mkdirSync(dir, { recursive: true }) !== undefined;
  const tmp = join(dir, `.${file}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, join(dir, file));
  } catch (err) {
    // A full disk (or any failed write) leaves no temporary file, nor a folder this call made.
    rmSync(made ? dir : tmp, { recursive: true, force: true });
    throw err;
  }
  return `${id}/${file}`;
}

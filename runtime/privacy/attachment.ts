/**
 * An attachment as Errata may keep it: a text file is copied with its secrets redacted (the
 * one entry point, for-write.ts), its name too; a file that is not text (a NUL byte, or bytes
 * that are not UTF-8) is refused, because the redactor cannot see into it and a copy could
 * carry a key in clear. The caller refuses before anything is written (bad input, exit 2).
 *
 * Example: `attachmentForWrite("notes.txt", Buffer.from("token=ghp_…"))` ->
 * `{name: "notes.txt", content: "token=[REDACTED:github-token]", kinds: ["github-token"]}`;
 * `attachmentForWrite("shot.png", <PNG bytes>)` throws BAD_INPUT "attachment shot.png is not
 * text (expected a UTF-8 text file …; found a NUL byte at offset 4)".
 */
import { badInput } from "../../core/errors.js";
import { redactForWrite } from "./for-write.js";

export interface AttachmentForWrite {
  name: string;
  content: string;
  kinds: string[];
}

export function attachmentForWrite(name: string, bytes: Uint8Array): AttachmentForWrite {
  const expected = "a UTF-8 text file Errata can check for secrets (attach a text export of anything else)";
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw badInput(`attachment ${name} is not text`, expected, `a NUL byte at offset ${nul}`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badInput(`attachment ${name} is not text`, expected, "bytes that are not UTF-8");
  }
  const r = redactForWrite({ name, content: text });
  return { ...r.value, kinds: r.kinds };
}

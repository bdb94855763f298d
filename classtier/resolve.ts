/**
 * Which class the runtime reports for a detected failure. The model judge is used only when
 * the recorded level says so AND the recorded prompt hash equals the current prompt's: once
 * the prompt changes, the measurement that promoted the judge no longer describes it, so the
 * class head stands in until `errata classtier eval --write` records the new prompt. The
 * second look (flag an exchange the detector passed when the judge names a failure) follows
 * the same rule.
 *
 * Example: level {level: "model_judge", prompt_hash: "sha256:aa…"} with current "sha256:bb…"
 * → {source: "class_head", reason: "prompt hash changed (recorded sha256:aa…, current sha256:bb…)"}.
 */
export interface LevelRecordLike {
  level: "class_head" | "model_judge";
  second_look: boolean;
  prompt_hash: string;
}

export interface Resolution {
  source: "model_judge" | "class_head";
  class: string | null;
  reason: string;
}

export function modelJudgeActive(record: LevelRecordLike | null, currentPromptHash: string): { active: boolean; reason: string } {
  if (record === null) return { active: false, reason: "no level recorded" };
  if (record.level !== "model_judge") return { active: false, reason: "the recorded level is the class head" };
  if (record.prompt_hash !== currentPromptHash) {
    return { active: false, reason: `prompt hash changed (recorded ${record.prompt_hash}, current ${currentPromptHash})` };
  }
  return { active: true, reason: "model judge recorded for the current prompt" };
}

export function resolveClass(
  record: LevelRecordLike | null,
  currentPromptHash: string,
  answers: { modelJudge: string | null; classHead: string | null },
): Resolution {
  const m = modelJudgeActive(record, currentPromptHash);
  if (m.active && answers.modelJudge !== null) return { source: "model_judge", class: answers.modelJudge, reason: m.reason };
  const reason = m.active ? "the model judge named no class for this exchange" : m.reason;
  return { source: "class_head", class: answers.classHead, reason };
}

/** Whether to flag an exchange the detector passed: only with the second look on and the judge active. */
export function secondLookFlags(record: LevelRecordLike | null, currentPromptHash: string, detectorPassed: boolean, judgeNamedClass: string | null): boolean {
  return detectorPassed && record !== null && record.second_look && modelJudgeActive({ ...record, level: "model_judge" }, currentPromptHash).active && judgeNamedClass !== null;
}

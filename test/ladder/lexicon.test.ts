// The multilingual lexicon (runtime/ladder/lexicon.ts): a correction in another language than
// its rule meets the rule's English words; English text adds nothing new.
import { describe, expect, it } from "vitest";
import { lexiconWords } from "../../runtime/ladder/lexicon.js";
import { crossTerms } from "../../runtime/ladder/naming.js";

describe("lexicon", () => {
  it("reads concepts in German, Finnish, French, Japanese and Chinese", () => {
    expect(lexiconWords("Niemals geheime Werte ausgeben!")).toEqual(expect.arrayContaining(["never", "secret", "print", "echo"]));
    expect(lexiconWords("Älä nimeä testiä näin, anna kuvaava nimi.")).toEqual(expect.arrayContaining(["never", "test", "name", "descript"]));
    expect(lexiconWords("Ne fais jamais de force push sur main.")).toEqual(expect.arrayContaining(["never", "forc", "push", "main"]));
    expect(lexiconWords("コミットメッセージに絵文字を使わないで")).toEqual(expect.arrayContaining(["commit", "messag", "emoji", "never"]));
    expect(lexiconWords("不能推送到远程")).toEqual(expect.arrayContaining(["never", "push", "remot"]));
  });

  it("reads Korean, whose particles are fused to the word, anywhere in the text", () => {
    expect(lexiconWords("커밋 메시지에 이모지를 넣지 마세요")).toEqual(expect.arrayContaining(["commit", "messag", "emoji", "never"]));
    expect(lexiconWords("테스트를 다시 실행하세요")).toEqual(expect.arrayContaining(["test", "again", "run"]));
    expect(lexiconWords("서버를 직접 시작하지 마세요")).toEqual(expect.arrayContaining(["server", "start", "direct", "never"]));
    expect(crossTerms("비밀번호를 로그에 출력하지 마")).toEqual(expect.arrayContaining(["password", "print", "never"]));
    // An English text gets nothing from the Korean entries.
    expect(crossTerms("Never start the server yourself")).toEqual([]);
  });

  it("reads the concepts of 2026-12-07 (servers, configuration, hard-coding, folders, tasks) in several languages", () => {
    expect(lexiconWords("Le seuil est codé en dur, mets-le dans la config")).toEqual(expect.arrayContaining(["hardcod"]));
    expect(lexiconWords("keine Aufgaben als Liste im Ordner")).toEqual(expect.arrayContaining(["task", "list", "directori"]));
    expect(lexiconWords("内部サービスをモックしないで。外部の依存だけ")).toEqual(expect.arrayContaining(["intern", "extern", "mock", "never"]));
    expect(lexiconWords("不要启动服务器")).toEqual(expect.arrayContaining(["never", "start", "server"]));
  });

  it("a short entry matches a whole word only; a long one a word's start", () => {
    expect(lexiconWords("the maize is ripe")).not.toContain("never"); // "mai" (Italian) is whole-word
    expect(lexiconWords("kommentaren fehlen")).toContain("comment");
  });

  it("crossTerms: English text gets nothing it has not; a foreign text gets English stems", () => {
    expect(crossTerms("Never print secret values")).toEqual([]);
    expect(crossTerms("Niemals geheime Werte ausgeben")).toEqual(expect.arrayContaining(["never", "secret", "print"]));
  });
});

describe("repeat markers and restatements across languages (runtime/ladder/signals.ts, incidents.ts)", () => {
  it("reads 'again' in Dutch, Italian and Swedish, and not in an ordinary sentence", async () => {
    const { repeatMarker } = await import("../../runtime/ladder/signals.js");
    expect(repeatMarker("Je hebt weer gecommit zonder make check")).toBe("weer");
    expect(repeatMarker("Hai fatto di nuovo il force push")).toBe("di nuovo");
    expect(repeatMarker("Du har pushat igen")).toBe("igen");
    expect(repeatMarker("Please add a test for the parser")).toBeNull();
  });

  it("a Chinese correction of a Chinese rule restates it through its two-character words", async () => {
    const { keyTerms } = await import("../../runtime/ladder/naming-model.js");
    const said = keyTerms("注释要用中文，你又写成英文了。");
    expect([...keyTerms("使用中文注释，一定要简洁明了。")].some((t) => said.has(t))).toBe(true);
    const german = keyTerms("Niemals geheime Werte ausgeben");
    expect([...keyTerms("Never echo, print, or log secret values")].filter((t) => german.has(t))).toEqual(expect.arrayContaining(["secret", "print"]));
  });
});

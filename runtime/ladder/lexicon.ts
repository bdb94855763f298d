/**
 * A small multilingual lexicon of coding-assistant concepts, so a correction in one language
 * meets a rule written in another: "Niemals geheime Werte ausgeben" (German) and "Never echo,
 * print, or log secret values" (English) share no word BM25 can match; through the lexicon
 * both carry "secret", "print", "never".
 *
 * Hand-written on purpose: no package in the project's lists maps coding words across these
 * languages, and a translation model is far beyond what the auditor may load. It is small and
 * general (commands, files, tests, commits, secrets, languages of replies, the usual verbs of
 * a rule), written from the vocabulary of instruction files, not from the labelled set's
 * items; it stays incomplete, and a word it lacks simply adds nothing.
 *
 * A few English synonyms of the same concepts are in it too (credential -> secret, dump ->
 * print, rewrite history -> force push), added for paraphrases of the labelled set's dev
 * projects that shared no word with their rule.
 *
 * Each concept is one or more English words (run through the same stemmer as every retrieval
 * term) and the words that say it in German, French, Spanish, Italian, Portuguese, Dutch,
 * Finnish, Swedish, Japanese and Chinese. A Latin-script entry matches a word that starts with
 * it (entries of 4 letters or more; shorter ones must match whole), so "ausgeben" and
 * "ausgegeben" need two entries but "commitit" and "commitata" need none; a CJK entry matches
 * anywhere in the text (those scripts have no spaces to cut at).
 *
 * Example: `lexiconWords("Niemals geheime Werte ausgeben!")` -> ["never", "secret", "value", "print", "echo", "log", "output"].
 */
import { words } from "../rules/index.js";

/** English words first (the concept), then the other languages' forms. */
const CONCEPTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["never", ["niemals", "nie", "jamais", "nunca", "mai", "nooit", "koskaan", "aldrig", "älä", "ei saa", "決して", "絶対に", "禁止", "不要", "不能", "不得", "严禁", "千万别", "别", "しないで", "ないで", "ダメ", "だめ"]],
  ["always", ["immer", "toujours", "siempre", "sempre", "altijd", "aina", "alltid", "常に", "必ず", "总是", "始终", "必须", "一定要", "每次"]],
  ["again", ["schon wieder", "wieder", "encore", "otra vez", "de nuevo", "ancora", "di nuovo", "opnieuw", "weer", "taas", "uudelleen", "igen", "また", "再び", "又", "再次"]],
  ["secret value", ["geheim", "secret", "secreto", "segreto", "segredo", "salaisu", "hemlig", "秘密", "シークレット", "机密", "密钥", "秘钥"]],
  ["token key credential password", ["passwort", "kennwort", "mot de passe", "contraseña", "salasan", "lösenord", "パスワード", "トークン", "認証情報", "密码", "令牌", "凭证", "凭据"]],
  ["print echo log output", ["ausgeben", "ausgegeben", "ausgabe", "afficher", "affiché", "imprimer", "imprimir", "mostrar", "stampare", "tulosta", "skriv ut", "出力", "表示", "印刷", "打印", "输出", "日志"]],
  ["test", ["test", "prueba", "essai", "testi", "teste", "テスト", "测试", "单测", "用例"]],
  ["name", ["nenn", "benenn", "name", "nom", "nombr", "nome", "naam", "nimeä", "nimi", "nimen", "namn", "命名", "名前", "名称", "名字"]],
  ["descript", ["beschreibend", "descriptif", "descriptivo", "descrittivo", "kuvaava", "beskrivande", "説明的", "描述性"]],
  ["commit", ["commit", "コミット", "提交"]],
  ["commit messag", ["commit-nachricht", "message de commit", "mensaje de commit", "commit-viesti", "コミットメッセージ", "提交信息", "提交消息"]],
  ["messag", ["nachricht", "message", "mensaje", "messaggio", "mensagem", "bericht", "viesti", "meddelande", "メッセージ", "信息", "消息"]],
  ["emoji", ["emoji", "絵文字", "表情"]],
  ["push", ["push", "pushe", "gepusht", "pousser", "empujar", "puskea", "プッシュ", "推送"]],
  ["forc", ["force", "forza", "forcer", "forzar", "forçar", "pakota", "強制", "强制"]],
  ["remot", ["remote", "distant", "remoto", "etä", "リモート", "远程", "远端"]],
  ["branch", ["branch", "zweig", "branche", "rama", "ramo", "tak", "haara", "gren", "ブランチ", "分支"]],
  ["main", ["main", "master", "主分支"]],
  ["build", ["build", "baue", "bauen", "compil", "kompil", "käännä", "rakenna", "ビルド", "构建", "编译"]],
  ["releas", ["release", "veröffentlich", "publicación", "versione", "julkaisu", "リリース", "发布", "发行"]],
  ["comment", ["kommentar", "comment", "comentario", "commento", "comentário", "commentaar", "kommentti", "コメント", "注释", "评论"]],
  ["chines", ["chinesisch", "chinois", "chino", "cinese", "kiina", "kinesisk", "中国語", "中文", "汉语"]],
  ["english", ["englisch", "anglais", "inglés", "ingles", "inglese", "engels", "englanti", "engelska", "英語", "英文", "英语"]],
  ["finnish", ["finnisch", "finnois", "finlandés", "finlandese", "suomi", "suomeksi", "finska", "フィンランド語", "芬兰语"]],
  ["languag repli repli answer", ["sprache", "langue", "idioma", "lingua", "kieli", "kielellä", "språk", "言語", "语言", "回答", "回复", "答复", "返信"]],
  ["run", ["ausführ", "lancer", "exécuter", "ejecutar", "eseguire", "executar", "uitvoeren", "aja", "ajoit", "kör", "実行", "运行", "执行", "跑"]],
  ["instal depend packag", ["installier", "installer", "instalar", "installare", "asenna", "インストール", "安装", "依赖"]],
  ["delet remov", ["lösch", "entfern", "supprim", "eliminar", "borrar", "eliminare", "poista", "ta bort", "削除", "删除", "移除"]],
  ["file", ["datei", "fichier", "archivo", "file", "bestand", "tiedosto", "fil", "ファイル", "文件"]],
  ["format", ["formatier", "formater", "formatear", "formattare", "muotoile", "フォーマット", "格式化"]],
  ["lint", ["linter", "lint", "リンター", "代码检查"]],
  ["type", ["typ", "tipo", "tyyppi", "型", "类型"]],
  ["error handl", ["fehler", "erreur", "error", "errore", "virhe", "fel", "エラー", "错误", "异常"]],
  ["ask permiss approv", ["frag", "erlaubnis", "demander", "permission", "preguntar", "permiso", "chiedere", "kysy", "lupa", "fråga", "許可", "確認", "同意", "批准", "允许", "询问"]],
  ["pull request pr", ["pull-request", "プルリク", "合并请求", "拉取请求"]],
  ["document doc", ["dokumentation", "documentation", "documentación", "documentazione", "dokumentaatio", "ドキュメント", "文档"]],
  ["function", ["funktion", "fonction", "función", "funzione", "função", "functie", "funktio", "関数", "函数"]],
  ["class subclass", ["klasse", "classe", "clase", "luokka", "klass", "クラス", "类", "子类", "基类"]],
  ["direct instanti", ["direkt", "directement", "directamente", "direttamente", "suoraan", "直接", "实例化", "インスタンス化"]],
  ["code", ["code", "código", "codice", "koodi", "kod", "コード", "代码", "源码"]],
  ["chang edit modifi", ["änder", "modifi", "cambi", "muuta", "muutos", "ändra", "変更", "修正", "修改", "改", "变更"]],
  ["mock", ["mock", "モック", "模拟"]],
  ["databas", ["datenbank", "base de données", "base de datos", "tietokanta", "databas", "データベース", "数据库"]],
  ["diff small", ["klein", "petit", "pequeño", "piccolo", "pieni", "liten", "小さ", "小的"]],
  ["simpl", ["einfach", "simple", "sencillo", "semplice", "yksinkertai", "enkel", "シンプル", "简单", "简洁"]],
  // English words of the same concepts that instruction files and owners use interchangeably.
  ["secret credential token", ["credential", "api key", "apikey", "password", "passwd", "private key"]],
  ["print output", ["dump", "dumped", "display", "displayed", "expose", "leak", "leaked"]],
  ["forc push", ["rewrite history", "rewrote history", "rewrite the remote history", "rewrote the remote history", "history rewrite"]],
  ["small minim diff", ["smallest", "minimal", "tiny", "focused", "narrow", "smaller"]],
  ["refactor rewrit", ["rewrote", "rewrite", "refactor", "restructur", "overhaul"]],
  ["type check", ["typecheck", "type-check", "tsc"]],
  ["global state", ["package-level", "module-level", "singleton", "mutable var", "global var"]],
  ["abbrevi name", ["abbreviat", "short name", "shortened name"]],
  ["revert chang", ["undid", "undo", "reverted", "discarded", "wiped", "vanish", "thrown away", "threw away"]],
];

interface Entry {
  form: string;
  cjk: boolean;
  prefix: boolean;
  english: readonly string[];
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

const ENTRIES: Entry[] = CONCEPTS.flatMap(([english, forms]) => {
  const en = english.split(" ");
  return forms.map((f) => {
    const form = f.normalize("NFKC").toLowerCase();
    return { form, cjk: CJK.test(form), prefix: [...form].length >= 4, english: en };
  });
});

/**
 * The English words the lexicon reads in a text (each once, in the order of the table), for
 * the caller to run through `terms` like any text. A text in English gives its lexicon words
 * back (callers keep only the terms the text lacks).
 */
export function lexiconWords(text: string): string[] {
  const folded = text.normalize("NFKC").toLowerCase();
  const ws = words(folded);
  const spaced = ` ${ws.join(" ")} `;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of ENTRIES) {
    let hit: boolean;
    if (e.cjk) hit = folded.includes(e.form);
    else if (e.form.includes(" ") || e.form.includes("-")) hit = spaced.includes(` ${words(e.form).join(" ")}`);
    else hit = ws.some((w) => (e.prefix ? w.startsWith(e.form) : w === e.form));
    if (!hit) continue;
    for (const t of e.english) {
      if (seen.has(t)) continue;
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

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
 * Finnish, Swedish, Japanese, Chinese and Korean (Korean added 2026-12-07). A Latin-script entry matches a word that starts with
 * it (entries of 4 letters or more; shorter ones must match whole), so "ausgeben" and
 * "ausgegeben" need two entries but "commitit" and "commitata" need none; a CJK or Hangul entry
 * matches anywhere in the text (Chinese and Japanese have no spaces to cut at; Korean fuses its
 * particles to the word), so Hangul entries are of two syllables or more.
 *
 * Example: `lexiconWords("Niemals geheime Werte ausgeben!")` -> ["never", "secret", "value", "print", "echo", "log", "output"].
 */
import { words } from "../rules/index.js";

/** English words first (the concept), then the other languages' forms. */
const CONCEPTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["never", ["niemals", "nie", "jamais", "nunca", "mai", "nooit", "koskaan", "aldrig", "älä", "ei saa", "決して", "絶対に", "禁止", "不要", "不能", "不得", "严禁", "千万别", "别", "しないで", "ないで", "ダメ", "だめ", "절대", "하지 마", "하지마", "마세요", "말아요", "말라", "금지", "안 돼", "안돼"]],
  ["always", ["immer", "toujours", "siempre", "sempre", "altijd", "aina", "alltid", "常に", "必ず", "总是", "始终", "必须", "一定要", "每次", "항상", "언제나", "반드시", "무조건"]],
  ["again", ["schon wieder", "wieder", "encore", "otra vez", "de nuevo", "ancora", "di nuovo", "opnieuw", "weer", "taas", "uudelleen", "igen", "また", "再び", "又", "再次", "다시", "또다시"]],
  ["secret value", ["geheim", "secret", "secreto", "segreto", "segredo", "salaisu", "hemlig", "秘密", "シークレット", "机密", "密钥", "秘钥", "비밀", "시크릿"]],
  ["token key credential password", ["passwort", "kennwort", "mot de passe", "contraseña", "salasan", "lösenord", "パスワード", "トークン", "認証情報", "密码", "令牌", "凭证", "凭据", "비밀번호", "토큰", "자격 증명", "인증 정보", "api 키"]],
  ["print echo log output", ["ausgeben", "ausgegeben", "ausgabe", "afficher", "affiché", "imprimer", "imprimir", "mostrar", "stampare", "tulosta", "skriv ut", "出力", "表示", "印刷", "打印", "输出", "日志", "출력", "로그", "표시"]],
  ["test", ["test", "prueba", "essai", "testi", "teste", "テスト", "测试", "单测", "用例", "테스트"]],
  ["name", ["nenn", "benenn", "name", "nom", "nombr", "nome", "naam", "nimeä", "nimi", "nimen", "namn", "命名", "名前", "名称", "名字", "이름", "명명", "네이밍"]],
  ["descript", ["beschreibend", "descriptif", "descriptivo", "descrittivo", "kuvaava", "beskrivande", "説明的", "描述性", "설명적"]],
  ["commit", ["commit", "コミット", "提交", "커밋"]],
  ["commit messag", ["commit-nachricht", "message de commit", "mensaje de commit", "commit-viesti", "コミットメッセージ", "提交信息", "提交消息", "커밋 메시지", "커밋 메세지"]],
  ["messag", ["nachricht", "message", "mensaje", "messaggio", "mensagem", "bericht", "viesti", "meddelande", "メッセージ", "信息", "消息", "메시지", "메세지"]],
  ["emoji", ["emoji", "絵文字", "表情", "이모지", "이모티콘"]],
  ["push", ["push", "pushe", "gepusht", "pousser", "empujar", "puskea", "プッシュ", "推送", "푸시", "푸쉬"]],
  ["forc", ["force", "forza", "forcer", "forzar", "forçar", "pakota", "強制", "强制", "강제"]],
  ["remot", ["remote", "distant", "remoto", "etä", "リモート", "远程", "远端", "원격", "리모트"]],
  ["branch", ["branch", "zweig", "branche", "rama", "ramo", "tak", "haara", "gren", "ブランチ", "分支", "브랜치"]],
  ["main", ["main", "master", "主分支", "메인 브랜치"]],
  ["build", ["build", "baue", "bauen", "compil", "kompil", "käännä", "rakenna", "ビルド", "构建", "编译", "빌드", "컴파일"]],
  ["releas", ["release", "veröffentlich", "publicación", "versione", "julkaisu", "リリース", "发布", "发行", "릴리스", "릴리즈"]],
  ["comment", ["kommentar", "comment", "comentario", "commento", "comentário", "commentaar", "kommentti", "コメント", "注释", "评论", "주석", "코멘트"]],
  ["chines", ["chinesisch", "chinois", "chino", "cinese", "kiina", "kinesisk", "中国語", "中文", "汉语", "중국어"]],
  ["english", ["englisch", "anglais", "inglés", "ingles", "inglese", "engels", "englanti", "engelska", "英語", "英文", "英语", "영어"]],
  ["finnish", ["finnisch", "finnois", "finlandés", "finlandese", "suomi", "suomeksi", "finska", "フィンランド語", "芬兰语", "핀란드어"]],
  ["languag repli repli answer", ["sprache", "langue", "idioma", "lingua", "kieli", "kielellä", "språk", "言語", "语言", "回答", "回复", "答复", "返信", "언어", "답변", "응답", "대답"]],
  ["run", ["ausführ", "lancer", "exécuter", "ejecutar", "eseguire", "executar", "uitvoeren", "aja", "ajoit", "kör", "実行", "运行", "执行", "跑", "실행", "돌리", "돌려"]],
  ["instal depend packag", ["installier", "installer", "instalar", "installare", "asenna", "インストール", "安装", "依赖", "설치", "의존성", "패키지"]],
  ["delet remov", ["lösch", "entfern", "supprim", "eliminar", "borrar", "eliminare", "poista", "ta bort", "削除", "删除", "移除", "삭제", "제거", "지우", "지워"]],
  ["file", ["datei", "fichier", "archivo", "file", "bestand", "tiedosto", "fil", "ファイル", "文件", "파일"]],
  ["format", ["formatier", "formater", "formatear", "formattare", "muotoile", "フォーマット", "格式化", "포맷", "서식"]],
  ["lint", ["linter", "lint", "リンター", "代码检查", "린트", "린터"]],
  ["type", ["typ", "tipo", "tyyppi", "型", "类型", "타입", "자료형"]],
  ["error handl", ["fehler", "erreur", "error", "errore", "virhe", "fel", "エラー", "错误", "异常", "에러", "오류", "예외"]],
  ["ask permiss approv", ["frag", "erlaubnis", "demander", "permission", "preguntar", "permiso", "chiedere", "kysy", "lupa", "fråga", "許可", "確認", "同意", "批准", "允许", "询问", "허락", "허가", "승인", "물어보"]],
  ["pull request pr", ["pull-request", "プルリク", "合并请求", "拉取请求", "풀 리퀘스트", "풀리퀘스트"]],
  ["document doc", ["dokumentation", "documentation", "documentación", "documentazione", "dokumentaatio", "ドキュメント", "文档", "문서"]],
  ["function", ["funktion", "fonction", "función", "funzione", "função", "functie", "funktio", "関数", "函数", "함수"]],
  ["class subclass", ["klasse", "classe", "clase", "luokka", "klass", "クラス", "类", "子类", "基类", "클래스"]],
  ["direct instanti", ["direkt", "directement", "directamente", "direttamente", "suoraan", "直接", "实例化", "インスタンス化", "직접", "인스턴스화"]],
  ["code", ["code", "código", "codice", "koodi", "kod", "コード", "代码", "源码", "코드"]],
  ["chang edit modifi", ["änder", "veränder", "mudanç", "mudar", "alteraç", "alterar", "wijzig", "modifi", "cambi", "muuta", "muutos", "ändra", "変更", "修正", "修改", "改", "变更", "변경", "수정", "바꾸", "바꿨", "고치", "고쳤"]],
  ["mock", ["mock", "モック", "模拟", "모킹", "모의 객체"]],
  ["databas", ["datenbank", "base de données", "base de datos", "tietokanta", "databas", "データベース", "数据库", "데이터베이스"]],
  ["diff small", ["klein", "petit", "pequeño", "piccolo", "pieni", "liten", "小さ", "小的", "작게", "작은"]],
  ["simpl", ["einfach", "simple", "sencillo", "semplice", "yksinkertai", "enkel", "シンプル", "简单", "简洁", "간단", "단순"]],
  ["fix bug", ["korrektur", "correction", "corrección", "arreglo", "correzione", "correção", "korjaus", "修复", "バグ修正", "버그 수정", "버그"]],
  ["fail", ["fehlschl", "scheiter", "échou", "falla", "fallisce", "falha", "mislukt", "epäonnist", "misslyck", "失敗", "失败", "실패"]],
  ["descript", ["beschreibung", "description", "descripción", "descrizione", "descrição", "beschrijving", "kuvaus", "beskrivning", "説明", "描述", "설명"]],
  ["write", ["schreib", "geschrieben", "écri", "escrib", "redact", "scriv", "escrev", "schrijf", "kirjoit", "skriv", "書い", "書く", "写", "작성"]],
  ["revert", ["revert", "zurückgesetzt", "zurücksetz", "rückgängig", "annulé", "annuler", "deshacer", "revertir", "ripristin", "terugdraai", "kumoa", "元に戻", "撤销", "回滚", "还原", "되돌", "원복", "롤백"]],
  // General concepts of instruction files added on 2026-12-07 (after the out-of-fold misses of
  // datasets/ladder-naming had been read: servers, configuration, hard-coding, folders, tasks,
  // mocks of internal and external services), each in every language of the table and Korean.
  ["server", ["serveur", "servidor", "palvelin", "サーバ", "服务器", "서버"]],
  ["start", ["starte", "starten", "gestartet", "démarr", "iniciar", "arrancar", "avviare", "avvia", "opstarten", "käynnist", "starta", "起動", "启动", "시작", "켜지"]],
  ["config set", ["konfiguration", "einstellung", "configuration", "paramètre", "configuración", "ajuste", "configurazione", "impostazion", "configuração", "instelling", "asetu", "inställning", "設定", "配置", "설정"]],
  ["hardcod", ["hartcodiert", "fest codiert", "codé en dur", "en dur", "hardcode", "cableado", "kovakoodat", "hårdkodad", "ハードコード", "硬编码", "写死", "하드코딩"]],
  ["directori folder", ["verzeichnis", "ordner", "dossier", "répertoire", "carpeta", "directorio", "cartella", "kansio", "hakemisto", "mapp", "katalog", "ディレクトリ", "フォルダ", "目录", "文件夹", "디렉터리", "디렉토리", "폴더"]],
  ["import", ["importier", "importer", "importar", "importare", "importeer", "importera", "インポート", "导入", "임포트"]],
  ["librari", ["bibliothek", "bibliothèque", "librería", "biblioteca", "libreria", "bibliotheek", "kirjasto", "bibliotek", "ライブラリ", "依赖库", "第三方库", "라이브러리"]],
  ["extern", ["extern", "externe", "externo", "esterno", "ulkoi", "外部", "외부"]],
  ["intern", ["intern", "interne", "interno", "sisäi", "内部", "내부"]],
  ["manual", ["manuell", "von hand", "manuel", "à la main", "a mano", "manuale", "handmatig", "käsin", "manuellt", "手動", "手作業", "手动", "手工", "수동"]],
  ["skip", ["überspring", "sauter", "omitir", "saltar", "saltare", "pular", "overslaan", "ohita", "hoppa över", "スキップ", "跳过", "건너뛰"]],
  ["path", ["pfad", "chemin", "ruta", "percorso", "caminho", "polku", "sökväg", "パス", "路径", "경로"]],
  ["task", ["aufgabe", "tâche", "tarea", "attività", "compito", "tarefa", "taak", "tehtävä", "uppgift", "タスク", "任务", "작업", "태스크"]],
  ["list", ["liste", "lista", "lijst", "luettelo", "リスト", "列表", "清单", "목록", "리스트"]],
  ["call", ["aufruf", "appel", "llamada", "chiamata", "chamada", "aanroep", "kutsu", "anrop", "呼び出", "调用", "호출"]],
  ["real actual", ["echt", "réel", "reale", "todellinen", "verklig", "実際", "本物", "真实", "实际", "실제"]],
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
  /** A form of several words: its words, space-joined with a space before, once the first text asks (segmenting it every call was most of this function's cost). */
  phrase?: string;
}

/** Scripts matched anywhere in the text: Japanese and Chinese have no spaces, and Korean attaches its particles to the word ("테스트를"). */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

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
  const whole = new Set(ws);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const e of ENTRIES) {
    let hit: boolean;
    if (e.cjk) hit = folded.includes(e.form);
    else if (e.form.includes(" ") || e.form.includes("-")) hit = spaced.includes((e.phrase ??= ` ${words(e.form).join(" ")}`));
    else hit = e.prefix ? ws.some((w) => w.startsWith(e.form)) : whole.has(e.form);
    if (!hit) continue;
    for (const t of e.english) {
      if (seen.has(t)) continue;
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

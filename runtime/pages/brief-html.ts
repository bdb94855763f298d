import { micromark } from "micromark";

/**
 * The labellers' brief (Markdown) as HTML, one section per `### <question id>` heading (the
 * text before the first such heading is the section of ""), so the page can mark the focused
 * question's guideline. Rendered by micromark with its safe defaults: raw HTML in the brief is
 * shown as text, never run (`<script>`, `<img onerror>`), and a link with a dangerous protocol
 * (`javascript:`) loses its target. HTML comments (the brief's generator line) are dropped.
 *
 * Example: `briefSections("# Brief\n\n### detect.unhappy\nIs the owner **unhappy**?")` ->
 * `[{q: "", html: "<h1>Brief</h1>"}, {q: "detect.unhappy", html: "<h3>detect.unhappy</h3>\n<p>Is the owner <strong>unhappy</strong>?</p>"}]`.
 */
export interface BriefSection {
  q: string;
  html: string;
}

export function briefSections(markdown: string): BriefSection[] {
  const sections: { q: string; lines: string[] }[] = [];
  const text = markdown.replace(/<!--[\s\S]*?-->/g, "");
  for (const line of text.split("\n")) {
    const m = /^### (\S+)/.exec(line);
    if (m || sections.length === 0) sections.push({ q: m ? m[1]! : "", lines: [] });
    sections[sections.length - 1]!.lines.push(line);
  }
  return sections.map((s) => ({ q: s.q, html: micromark(s.lines.join("\n")).trim() }));
}

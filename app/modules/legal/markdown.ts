/**
 * The few Markdown forms the shop's legal pages are written in, parsed into plain data the page renders as
 * React elements (never as HTML, so an owner's file cannot inject markup): headings (#, ##, ###),
 * paragraphs, bulleted (-) and numbered (1.) lists, quoted blocks (>), **bold** and [links](url) to
 * http(s), mailto: or the shop's own paths.
 */
export type Inline = { kind: 'text'; text: string } | { kind: 'strong'; text: string } | { kind: 'link'; text: string; href: string };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'quote'; blocks: Block[] };

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading) {
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3, text: heading[2]!.trim() });
      i++;
      continue;
    }
    if (/^>\s?/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^>\s?/.test(lines[i]!)) quoted.push(lines[i++]!.replace(/^>\s?/, ''));
      blocks.push({ kind: 'quote', blocks: parseMarkdown(quoted.join('\n')) });
      continue;
    }
    const item = listItem(line);
    if (item) {
      const items: Inline[][] = [];
      while (i < lines.length) {
        const next = listItem(lines[i]!);
        if (next && next.ordered === item.ordered) {
          items.push(parseInline(next.text));
        } else if (items.length > 0 && /^\s{2,}\S/.test(lines[i]!)) {
          // An indented line continues the item above it.
          const last = items[items.length - 1]!;
          last.push({ kind: 'text', text: ' ' }, ...parseInline(lines[i]!.trim()));
        } else break;
        i++;
      }
      blocks.push({ kind: 'list', ordered: item.ordered, items });
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '' && !/^(#{1,3}\s|>)/.test(lines[i]!) && !listItem(lines[i]!)) paragraph.push(lines[i++]!.trim());
    blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
  }
  return blocks;
}

function listItem(line: string): { ordered: boolean; text: string } | null {
  const bullet = /^[-*]\s+(.*)$/.exec(line);
  if (bullet) return { ordered: false, text: bullet[1]! };
  const numbered = /^\d{1,3}[.)]\s+(.*)$/.exec(line);
  return numbered ? { ordered: true, text: numbered[1]! } : null;
}

const INLINE = /\*\*(.+?)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function parseInline(text: string): Inline[] {
  const parts: Inline[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    if (match[1] !== undefined) parts.push({ kind: 'strong', text: match[1] });
    else if (safeHref(match[3]!)) parts.push({ kind: 'link', text: match[2]!, href: match[3]! });
    else parts.push({ kind: 'text', text: match[2]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** Links may lead to the web, to a mail address or to the shop's own pages; nothing else (no javascript:). */
export const safeHref = (href: string) => /^(https?:\/\/|mailto:|\/(?!\/))/i.test(href);

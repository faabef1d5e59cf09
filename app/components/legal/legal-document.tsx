import { Link } from 'react-router';
import type { Block, Inline } from '~/modules/legal/markdown';

/** A legal page's text as parsed by `parseMarkdown`: React elements only, never HTML from the file. */
export function LegalBlocks({ blocks }: { blocks: Block[] }) {
  return blocks.map((block, i) => <LegalBlock key={i} block={block} />);
}

function LegalBlock({ block }: { block: Block }) {
  switch (block.kind) {
    case 'heading':
      // The page's title is its only h1; headings inside the text start at h2.
      return block.level === 3 ? (
        <h3 className="mt-8 text-xl font-semibold">{block.text}</h3>
      ) : (
        <h2 className="mt-12 text-2xl font-semibold md:text-3xl">{block.text}</h2>
      );
    case 'paragraph':
      return (
        <p className="mt-4 leading-relaxed text-roast-800">
          <Inlines parts={block.content} />
        </p>
      );
    case 'list': {
      const List = block.ordered ? 'ol' : 'ul';
      return (
        <List className={`mt-4 space-y-2 pl-6 leading-relaxed text-roast-800 ${block.ordered ? 'list-decimal' : 'list-disc'}`}>
          {block.items.map((item, i) => (
            <li key={i}>
              <Inlines parts={item} />
            </li>
          ))}
        </List>
      );
    }
    case 'quote':
      return (
        <div className="mt-6 rounded-2xl bg-paper p-5 ring-1 ring-sand md:p-6 [&>*:first-child]:mt-0">
          <LegalBlocks blocks={block.blocks} />
        </div>
      );
  }
}

function Inlines({ parts }: { parts: Inline[] }) {
  return parts.map((part, i) => {
    if (part.kind === 'strong') return <strong key={i}>{part.text}</strong>;
    if (part.kind === 'text') return part.text;
    const className = 'font-medium underline underline-offset-2 hover:text-leaf-dark';
    return part.href.startsWith('/') ? (
      <Link key={i} to={part.href} className={className}>
        {part.text}
      </Link>
    ) : (
      <a key={i} href={part.href} className={className}>
        {part.text}
      </a>
    );
  });
}

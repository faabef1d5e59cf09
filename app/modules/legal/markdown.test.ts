import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('the legal pages’ Markdown', () => {
  it('reads headings, paragraphs, lists and quotes', () => {
    const blocks = parseMarkdown(['# Terms', '', 'First line', 'continues here.', '', '## Returns', '- one', '- **two**', '', '1. first', '2. second', '', '> Quoted', '> text.'].join('\n'));
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, text: 'Terms' },
      { kind: 'paragraph', content: [{ kind: 'text', text: 'First line continues here.' }] },
      { kind: 'heading', level: 2, text: 'Returns' },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'one' }], [{ kind: 'strong', text: 'two' }]] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'first' }], [{ kind: 'text', text: 'second' }]] },
      { kind: 'quote', blocks: [{ kind: 'paragraph', content: [{ kind: 'text', text: 'Quoted text.' }] }] },
    ]);
  });

  it('keeps links to the web, mail and the shop, and turns anything else into text', () => {
    expect(parseInline('See [the terms](/legal/terms), [mail](mailto:a@b.pl) or [x](javascript:alert).')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'the terms', href: '/legal/terms' },
      { kind: 'text', text: ', ' },
      { kind: 'link', text: 'mail', href: 'mailto:a@b.pl' },
      { kind: 'text', text: ' or ' },
      { kind: 'text', text: 'x' },
      { kind: 'text', text: '.' },
    ]);
    expect(parseInline('[evil](//evil.example)')).toEqual([{ kind: 'text', text: 'evil' }]);
  });

  it('never produces markup from HTML in the source', () => {
    const blocks = parseMarkdown('<script>alert(1)</script> **<b>x</b>**');
    expect(blocks).toEqual([
      { kind: 'paragraph', content: [{ kind: 'text', text: '<script>alert(1)</script> ' }, { kind: 'strong', text: '<b>x</b>' }] },
    ]);
  });
});

import { createContext, useContext, useState } from 'react';

/**
 * The shop's stylesheet written into the page instead of linked (docs/decisions/0018): a phone paints the
 * first screen from the HTML alone, without a second round trip that blocks rendering. Given by the server
 * (it reads the built file once); the browser keeps what the server wrote and never downloads it again.
 */
export const StylesheetTextContext = createContext<((href: string) => string | undefined) | undefined>(undefined);

const ID = 'kopi-css';

export function InlineStylesheet({ href }: { href: string }) {
  const textOf = useContext(StylesheetTextContext);
  // On the server: the built file's text (none in development, where Vite serves the stylesheet). In the
  // browser: whatever the server wrote, read back from the page, so hydration finds the same element.
  const [text] = useState(() => (textOf ? textOf(href) : typeof document === 'undefined' ? undefined : document.getElementById(ID)?.textContent ?? undefined));
  if (text === undefined) return <link rel="stylesheet" href={href} />;
  return <style id={ID} dangerouslySetInnerHTML={{ __html: text }} />;
}

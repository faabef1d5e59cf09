import fs from 'node:fs';
import path from 'node:path';

/**
 * The text of the built stylesheets, read once per process, for pages that carry their styles inline
 * (app/lib/inline-stylesheet.tsx). Anything but a built CSS file, or a file that is not there, gives
 * undefined and the page links the stylesheet as usual.
 */
export function builtStylesheetReader(clientDir: string): (href: string) => string | undefined {
  const texts = new Map<string, string | undefined>();
  return (href) => {
    if (!texts.has(href)) texts.set(href, /^\/assets\/[\w.-]+\.css$/.test(href) ? readIfThere(path.join(clientDir, href)) : undefined);
    return texts.get(href);
  };
}

function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A pack size in a name: "10 × 12 g", "10 pcs", "18 szt.", "250 g". */
const MEASURE = /\d+(?:[.,]\d+)?\s×\s\d+(?:[.,]\d+)?\s?(?:g|kg|ml)|\d+(?:[.,]\d+)?\s(?:g|kg|ml|pcs|szt\.)/g;

/** The name in pieces, with each pack size marked so it never breaks across lines. */
export function nameParts(name: string): { text: string; measure: boolean }[] {
  const parts: { text: string; measure: boolean }[] = [];
  let last = 0;
  for (const match of name.matchAll(MEASURE)) {
    if (match.index > last) parts.push({ text: name.slice(last, match.index), measure: false });
    parts.push({ text: match[0], measure: true });
    last = match.index + match[0].length;
  }
  if (last < name.length) parts.push({ text: name.slice(last), measure: false });
  return parts;
}

/** A product's name as text, with "10 × 12 g" kept on one line (the words and spaces are unchanged). */
export function ProductName({ name }: { name: string }) {
  return (
    <>
      {nameParts(name).map((part, i) =>
        part.measure ? (
          <span key={i} className="whitespace-nowrap">
            {part.text}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

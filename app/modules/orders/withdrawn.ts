/**
 * Which lines of an order were withdrawn from. A withdrawal keeps its lines as JSON; since variants it names each
 * by its position in the order (an order may hold the 250 g and the 1 kg of one coffee), and withdrawals recorded
 * before name a product, which was then one line of its order. Pure: the server reads the rows, this matches them.
 */
export type WithdrawnEntry = { position?: number; productId?: string };

/** A withdrawal's lines as stored; nothing for a malformed value. */
export function parseWithdrawnEntries(json: string): WithdrawnEntry[] {
  try {
    const lines = JSON.parse(json) as unknown;
    return Array.isArray(lines) ? (lines as WithdrawnEntry[]) : [];
  } catch {
    return [];
  }
}

/** The positions of the order's lines that `entries` withdraw from. */
export function withdrawnPositions(entries: readonly WithdrawnEntry[], lines: ReadonlyArray<{ position: number; productId: string }>): number[] {
  const positions = new Set<number>();
  for (const entry of entries) {
    if (typeof entry.position === 'number') positions.add(entry.position);
    else if (entry.productId) for (const line of lines) if (line.productId === entry.productId) positions.add(line.position);
  }
  return [...positions].sort((a, b) => a - b);
}

export function newestSource(dir?: string): { file: string; mtimeMs: number } | null;
export function staleness(dir?: string): string | null;

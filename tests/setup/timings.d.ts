export function recordTiming(phase: string, seconds: number, detail?: string): void;
export function openTiming(phase: string): (seconds: number, detail?: string) => void;
export function nestedTimingEnv(): NodeJS.ProcessEnv;
export function minutes(seconds: number): string;

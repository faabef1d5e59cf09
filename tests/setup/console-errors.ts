/**
 * Vitest setup: an unexpected `console.error` fails the test that wrote it (STYLE.md), as it does in the
 * browser journeys. A test that provokes one on purpose says so with `allowConsoleError(/pattern/)`.
 */
import { afterEach, beforeEach } from 'vitest';

const original = console.error;
let written: string[] = [];
let allowed: RegExp[] = [];

/** Errors matching `pattern` are expected in the current test. */
export function allowConsoleError(pattern: RegExp): void {
  allowed.push(pattern);
}

beforeEach(() => {
  written = [];
  allowed = [];
  console.error = (...args: unknown[]) => {
    written.push(args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '));
  };
});

afterEach(() => {
  console.error = original;
  const unexpected = written.filter((line) => !allowed.some((pattern) => pattern.test(line)));
  if (unexpected.length > 0) throw new Error(`Unexpected console.error:\n${unexpected.join('\n')}`);
});

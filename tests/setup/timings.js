// The suite's timings: each phase of `.ci/run` and of `npm test`, Vitest's test time per database, Playwright's per
// project and the crash test's per database, appended as `phase<TAB>seconds<TAB>detail` lines to the file
// TEST_TIMINGS names (CI sets it and prints the table at the end). Without TEST_TIMINGS nothing is written.
//
// A phase's parts are indented under it: a phase opens with a line whose seconds are "-" (so it comes before its
// parts in the table), closes with its time, and runs its commands with TEST_TIMINGS_DEPTH one deeper.
import fs from 'node:fs';

const depth = Number(process.env.TEST_TIMINGS_DEPTH) || 0;
const indent = '  '.repeat(depth);

function append(phase, value, detail) {
  const file = process.env.TEST_TIMINGS;
  if (file) fs.appendFileSync(file, `${indent}${phase}\t${value}\t${detail}\n`);
}

/** Records that `phase` took `seconds` (with an optional detail, e.g. "245 journeys"). */
export function recordTiming(phase, seconds, detail = '') {
  append(phase, seconds.toFixed(1), detail);
}

/** Opens `phase`, so what its commands record is listed under it; the returned function records its time. */
export function openTiming(phase) {
  append(phase, '-', '');
  return (seconds, detail = '') => recordTiming(phase, seconds, detail);
}

/** The environment for a phase's commands: what they record is indented one level deeper. */
export const nestedTimingEnv = () => ({ ...process.env, TEST_TIMINGS_DEPTH: String(depth + 1) });

/** "4:05" for 245 s. */
export function minutes(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

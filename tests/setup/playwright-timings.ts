/**
 * A Playwright reporter beside the list: each project's span (its first journey's start to its last one's end;
 * projects overlap where they run side by side), the journeys' own time, and the slowest files, so the journey
 * that makes the suite slow is named the day it lands. Recorded through tests/setup/timings.js.
 */
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { minutes, recordTiming } from './timings.js';

type Span = { first: number; last: number; journeys: number; time: number };

export default class PlaywrightTimings implements Reporter {
  /** `name`: what the table calls this run ("Playwright" unless told). */
  constructor(private readonly options: { name?: string } = {}) {}

  private readonly started = Date.now();
  private readonly projects = new Map<string, Span>();
  private readonly files = new Map<string, number>();

  printsToStdio() {
    return false;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const project = test.parent.project()?.name || 'the only project';
    const start = result.startTime.getTime();
    const span = this.projects.get(project) ?? { first: start, last: start, journeys: 0, time: 0 };
    span.first = Math.min(span.first, start);
    span.last = Math.max(span.last, start + result.duration);
    span.journeys += 1;
    span.time += result.duration / 1000;
    this.projects.set(project, span);
    const file = `${project} · ${test.location.file.replace(/.*[\\/]tests[\\/]/, 'tests/')}`;
    this.files.set(file, (this.files.get(file) ?? 0) + result.duration / 1000);
  }

  onEnd(result: FullResult) {
    const wall = (Date.now() - this.started) / 1000;
    const journeys = [...this.projects.values()].reduce((n, s) => n + s.journeys, 0);
    const name = this.options.name ?? 'Playwright';
    const lines = [`\n${name}: ${minutes(wall)} for ${journeys} journeys (${result.status})`];
    recordTiming(name, wall, `${journeys} journeys`);
    for (const [name, span] of this.projects) {
      const seconds = (span.last - span.first) / 1000;
      lines.push(`  ${name}: ${minutes(seconds)} from its first journey to its last, ${span.journeys} journeys, their own time ${minutes(span.time)}`);
      recordTiming(`  project "${name}"`, seconds, `${span.journeys} journeys, their own time ${minutes(span.time)}`);
    }
    lines.push('  slowest files (their journeys\' own time):');
    for (const [file, seconds] of [...this.files].sort((a, b) => b[1] - a[1]).slice(0, 5)) lines.push(`    ${minutes(seconds)}  ${file}`);
    console.log(lines.join('\n'));
  }
}

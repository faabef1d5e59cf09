/**
 * A Vitest reporter beside the default one: how long the run took, and how the tests' own time splits between
 * the databases (a suite runs on each through `describe.each(testDatabases())`, "… on sqlite" / "… on postgres";
 * the rest runs on SQLite only or on no database). Files run side by side, so the split is of test time, not of
 * the wall clock. Recorded through tests/setup/timings.js.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { minutes, recordTiming } from './timings.js';

export default class VitestTimings implements Reporter {
  private readonly started = performance.now();
  private readonly time = { sqlite: 0, postgres: 0, other: 0 };
  private readonly count = { sqlite: 0, postgres: 0, other: 0 };

  onTestCaseResult(test: TestCase) {
    const database = (/\bon (sqlite|postgres)\b/.exec(test.fullName)?.[1] ?? 'other') as keyof VitestTimings['time'];
    this.time[database] += (test.diagnostic()?.duration ?? 0) / 1000;
    this.count[database] += 1;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const wall = (performance.now() - this.started) / 1000;
    const node = `Node ${process.versions.node.split('.')[0]}`;
    const files = modules.length;
    const tests = this.count.sqlite + this.count.postgres + this.count.other;
    recordTiming(`Vitest (${node})`, wall, `${files} files, ${tests} tests`);
    const parts = [
      ['SQLite', this.time.sqlite, this.count.sqlite],
      ['PostgreSQL', this.time.postgres, this.count.postgres],
      ['SQLite only or no database', this.time.other, this.count.other],
    ] as const;
    const run = parts.filter(([, , count]) => count > 0);
    for (const [label, seconds, count] of run) recordTiming(`  tests on ${label} (${node})`, seconds, `${count} tests, their own time`);
    const split = run.map(([label, seconds]) => `${label} ${minutes(seconds)}`);
    console.log(`\nVitest on ${node}: ${minutes(wall)} for ${tests} tests in ${files} files; the tests' own time: ${split.join(', ')}`);
  }
}

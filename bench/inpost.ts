/** InPost's Points API stand-in (tests/doubles/inpost-points.js) in a process of its own, for the bench's shops. */
import { spawn } from 'node:child_process';

export async function startInpostStandIn(port: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['tests/doubles/inpost-points.js', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (await fetch(`${url}/__requests`).then(() => true, () => false)) return { url, stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error('the InPost stand-in did not start');
}

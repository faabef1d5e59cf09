/** Starts a stand-in (tests/doubles/*.js) in a process of its own and waits until it answers on `port`. */
import { type ChildProcess, spawn } from 'node:child_process';

export async function spawnStandIn(file: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [`tests/doubles/${file}`, String(port)], { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    if (await fetch(`http://127.0.0.1:${port}/__requests`).then(() => true, () => false)) return child;
    await new Promise((r) => setTimeout(r, 25));
  }
  child.kill();
  throw new Error(`the stand-in ${file} did not start`);
}

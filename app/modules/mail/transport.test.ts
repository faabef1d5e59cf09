import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../tests/fixtures/free-port';
import { createMailTransport } from './transport.server';

describe('file mail transport', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-mail-'));
  });
  afterEach(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('writes a readable .eml into DATA_DIR/mail and logs where it is', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const transport = createMailTransport({ dataDir }, pino({ level: 'info' }, sink));
    expect(transport.describe).toBe(`files in ${path.join(dataDir, 'mail')}`);

    await transport.send({
      from: 'Kopi <hello@kopi.test>',
      to: 'owner@kopi.test',
      subject: 'Zamówienie: kawa z Gayo',
      text: 'Dzień dobry!\nTwo bags, please.',
      html: '<p>Dzień dobry!</p>',
      replyTo: 'visitor@example.com',
    });
    transport.close();

    const files = await fs.readdir(path.join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const file = path.join(dataDir, 'mail', files[0]);
    const raw = await fs.readFile(file, 'utf8');
    expect(raw).toMatch(/^From: Kopi <hello@kopi\.test>\r$/m);
    expect(raw).toMatch(/^To: owner@kopi\.test\r$/m);
    expect(raw).toMatch(/^Reply-To: visitor@example\.com\r$/m);
    expect(raw).toMatch(/^Subject: =\?UTF-8\?/m); // non-ASCII subject is MIME-encoded
    expect(raw).toMatch(/^Message-ID: </m);
    expect(raw).toContain('Content-Type: text/plain; charset=utf-8');
    expect(raw).toContain('Two bags, please.');
    expect(raw).toContain('Content-Type: text/html; charset=utf-8');
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/\n/); // CRLF line endings throughout, as RFC 5322 wants

    const logged = lines.find((l) => l.msg?.toString().startsWith('mail written'));
    expect(logged).toMatchObject({ file, to: 'owner@kopi.test', subject: 'Zamówienie: kawa z Gayo' });
  });
});

describe('SMTP mail transport', () => {
  it('describes itself without credentials', () => {
    const transport = createMailTransport(
      { smtpUrl: 'smtps://user:secret@mail.example.com:465', dataDir: '/unused' },
      pino({ level: 'silent' }),
    );
    expect(transport.describe).toBe('SMTP smtps://mail.example.com:465');
    transport.close();
  });

  it('talks SMTP on a thread of its own: a message goes out while the shop’s event loop is busy', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'kopi-smtp-'));
    const received = path.join(dir, 'received.jsonl');
    const port = await freePort();
    // The SMTP server in a process of its own, so that blocking this one blocks only the shop's side.
    const server = fork(path.resolve('tests/crash/smtp-sink.ts'), [String(port), received], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    try {
      await new Promise((resolve, reject) => {
        server.once('message', resolve);
        server.once('exit', reject);
      });
      const transport = createMailTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir: dir }, pino({ level: 'silent' }));
      const mail = (subject: string) => ({ from: 'Kopi <hello@kopi.test>', to: 'ola@example.com', subject, text: 'Dzień dobry!' });
      await transport.send(mail('first')); // the connection is open and greeted
      const sending = transport.send(mail('second'));
      // The shop is busy (rendering, a long statement): nothing runs on its event loop for a second and a half.
      const busyUntil = Date.now() + 1500;
      while (Date.now() < busyUntil);
      await sending;
      transport.close();
      const lines = readFileSync(received, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { subject: string; at: number });
      expect(lines.map((l) => l.subject)).toEqual(['first', 'second']);
      // Its whole SMTP conversation happened meanwhile, on the thread.
      expect(lines[1]!.at).toBeLessThan(busyUntil);
    } finally {
      server.kill();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

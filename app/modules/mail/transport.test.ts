import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});

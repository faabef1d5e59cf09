import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TestDatabase, testDatabases } from '~/db/test-databases';
import { LEASE_MS, PERMANENT_ATTEMPTS, claimDueMail, deliverDueMail, messageIdFor, queueMail, queueMails, retryDelayMs, sendMailAgain, startMailWorker } from './outbox.server';
import { createMailTransport, type MailTransport } from './transport.server';

const log = pino({ level: 'silent' });
const from = 'Kopi <hello@kopi.test>';

type Received = { from: string; to: string[]; raw: string };

/** An in-process SMTP server on 127.0.0.1 that keeps every message it accepts (and refuses the `refuse` recipient, as a mailbox that does not exist). */
async function startSmtpServer(port = 0, { refuse }: { refuse?: string } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address !== refuse) return callback();
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown in virtual mailbox table`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const transportTo = (port: number): MailTransport =>
  createMailTransport({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir: '/nonexistent' }, log);

describe('retryDelayMs', () => {
  it('doubles from 15 s and stops at 30 min', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([15_000, 30_000, 60_000, 120_000]);
    expect(retryDelayMs(20)).toBe(30 * 60_000);
    expect(retryDelayMs(1000)).toBe(30 * 60_000);
  });
});

describe.each(testDatabases())('mail outbox on %s', (_kind, open) => {
  let handle: TestDatabase;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let transport: MailTransport;

  beforeAll(async () => {
    handle = await open();
    smtp = await startSmtpServer();
    transport = transportTo(smtp.port);
  });
  afterAll(async () => {
    transport.close();
    await smtp.close();
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.deleteFrom('mail_outbox').execute();
    smtp.received.length = 0;
  });

  const outbox = () => handle.db.selectFrom('mail_outbox').selectAll().execute();

  it('does not queue a mail with nobody to go to (an order whose customer was removed), nor an empty reply-to', async () => {
    const ids = await queueMails(handle.db, [
      { to: '', subject: 'Your refund', text: 'Refunded.' },
      { to: 'owner@kopi.test', subject: 'Refund of a deleted customer’s order', text: 'Refunded.', replyTo: '' },
    ]);
    expect(ids[0]).toBe('');
    const rows = await outbox();
    expect(rows).toMatchObject([{ id: ids[1], to_address: 'owner@kopi.test', reply_to: null }]);
  });

  it('queues a message and delivers it over SMTP with the right headers and body', async () => {
    const id = await queueMail(handle.db, {
      to: 'owner@kopi.test',
      subject: 'A fresh order',
      text: 'Two bags of Gayo, please.',
      html: '<p>Two bags of Gayo, please.</p>',
      replyTo: 'visitor@example.com',
    });
    const [queued] = await outbox();
    expect(queued).toMatchObject({ id, status: 'queued', attempts: 0, sent_at: null });

    expect(await deliverDueMail(handle.db, transport, { from, log })).toEqual({ sent: 1, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe('hello@kopi.test');
    expect(mail.to).toEqual(['owner@kopi.test']);
    expect(mail.raw).toMatch(/^From: Kopi <hello@kopi\.test>\r$/m);
    expect(mail.raw).toMatch(/^To: owner@kopi\.test\r$/m);
    expect(mail.raw).toMatch(/^Reply-To: visitor@example\.com\r$/m);
    expect(mail.raw).toMatch(/^Subject: A fresh order\r$/m);
    expect(mail.raw).toContain('Two bags of Gayo, please.');
    expect(mail.raw).toContain('<p>Two bags of Gayo, please.</p>');

    const [row] = await outbox();
    expect(row.status).toBe('sent');
    expect(row.sent_at).not.toBeNull();
    expect(await deliverDueMail(handle.db, transport, { from, log })).toEqual({ sent: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps a message queued while the server is down and delivers it exactly once later', async () => {
    const down = await startSmtpServer();
    const port = down.port;
    await down.close();
    const flaky = transportTo(port);
    try {
      await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Retry me', text: 'Still here.' });
      const start = new Date();

      expect(await deliverDueMail(handle.db, flaky, { from, log, now: start })).toEqual({ sent: 0, failed: 1 });
      const [failed] = await outbox();
      expect(failed.status).toBe('queued');
      expect(failed.attempts).toBe(1);
      expect(failed.last_error).toMatch(/ECONNREFUSED/);
      // 15 s after the failure (the worker's clock is the pass's `now` moved on by the time that passed).
      const retryAt = Date.parse(failed.next_attempt_at) - start.getTime();
      expect(retryAt).toBeGreaterThanOrEqual(15_000);
      expect(retryAt).toBeLessThan(16_000);

      // Not due yet: nothing happens even though the server is back.
      const up = await startSmtpServer(port);
      try {
        expect(await deliverDueMail(handle.db, flaky, { from, log, now: new Date(start.getTime() + 5_000) })).toEqual({
          sent: 0,
          failed: 0,
        });
        expect(up.received).toHaveLength(0);

        const later = new Date(start.getTime() + 16_000);
        expect(await deliverDueMail(handle.db, flaky, { from, log, now: later })).toEqual({ sent: 1, failed: 0 });
        expect(await deliverDueMail(handle.db, flaky, { from, log, now: new Date(later.getTime() + 3_600_000) })).toEqual({
          sent: 0,
          failed: 0,
        });
        expect(up.received).toHaveLength(1);
        expect(up.received[0].raw).toContain('Still here.');
        const [sent] = await outbox();
        expect(sent).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
      } finally {
        await up.close();
      }
    } finally {
      flaky.close();
    }
  });

  it('sends a message once when two deliveries run at the same time', async () => {
    await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Only once', text: 'One copy.' });
    await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Also once', text: 'One copy.' });
    const results = await Promise.all([
      deliverDueMail(handle.db, transport, { from, log }),
      deliverDueMail(handle.db, transport, { from, log }),
      deliverDueMail(handle.db, transport, { from, log }),
    ]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(2);
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received.map((m) => /^Subject: (.*)\r$/m.exec(m.raw)?.[1]).sort()).toEqual(['Also once', 'Only once']);
  });

  it('two workers sharing one queue claim in batches and send every message exactly once', async () => {
    for (let i = 0; i < 60; i++) await queueMail(handle.db, { to: `c${i}@kopi.test`, subject: `Order ${i}`, text: 'Thanks.' });
    // Two claims at the same moment never hold the same message.
    const [a, b] = await Promise.all([
      claimDueMail(handle.db, { now: new Date(), limit: 25, token: 'a' }),
      claimDueMail(handle.db, { now: new Date(), limit: 25, token: 'b' }),
    ]);
    expect(a.length + b.length).toBe(50);
    expect(new Set([...a, ...b].map((r) => r.id)).size).toBe(50);
    expect(a.every((r) => r.claim_token === 'a') && b.every((r) => r.claim_token === 'b')).toBe(true);
    await handle.db.updateTable('mail_outbox').set({ next_attempt_at: new Date(0).toISOString(), claim_token: null }).execute();

    const second = createMailTransport({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, dataDir: '/nonexistent', mailConcurrency: 4 }, log);
    try {
      const passes = await Promise.all(
        [transport, second, transport, second].map((t) => deliverDueMail(handle.db, t, { from, log, concurrency: 4, batchSize: 10 })),
      );
      let sent = passes.reduce((n, r) => n + r.sent, 0);
      while (sent < 60) sent += (await deliverDueMail(handle.db, second, { from, log, concurrency: 4 })).sent;
      expect(sent).toBe(60);
    } finally {
      second.close();
    }
    const subjects = smtp.received.map((m) => /^Subject: (.*)\r$/m.exec(m.raw)?.[1]);
    expect(subjects).toHaveLength(60);
    expect(new Set(subjects).size).toBe(60);
    expect((await outbox()).every((row) => row.status === 'sent' && row.claim_token === null)).toBe(true);
  });

  it('keeps its Message-ID from the queue to every attempt, also after a crash', async () => {
    const id = await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Same message', text: 'Once, as far as you can tell.' });
    expect(messageIdFor(id, from)).toBe(`<${id}@kopi.test>`);
    expect(messageIdFor(id, 'hello@shop.example')).toBe(`<${id}@shop.example>`);

    // A worker claims it, the server accepts it, and the process dies before marking it sent.
    const start = new Date();
    const [claimed] = await claimDueMail(handle.db, { now: start, limit: 10, token: 'dead-worker' });
    await transport.send({ from, to: claimed.to_address, subject: claimed.subject, text: claimed.text_body, messageId: messageIdFor(claimed.id, from) });
    // Hidden for the lease (seconds, not minutes), then sent again with the same Message-ID.
    expect(LEASE_MS).toBeLessThanOrEqual(30_000);
    expect(await deliverDueMail(handle.db, transport, { from, log, now: new Date(start.getTime() + LEASE_MS - 1000) })).toEqual({ sent: 0, failed: 0 });
    expect(await deliverDueMail(handle.db, transport, { from, log, now: new Date(start.getTime() + LEASE_MS + 1) })).toEqual({ sent: 1, failed: 0 });
    const ids = smtp.received.map((m) => /^Message-ID: (.*)\r$/m.exec(m.raw)?.[1]);
    expect(ids).toEqual([`<${id}@kopi.test>`, `<${id}@kopi.test>`]);
    // The dead worker's token no longer marks anything.
    expect((await outbox())[0]).toMatchObject({ status: 'sent', claim_token: null });
  });

  it('renews the lease while a slow message is being sent, so nobody else takes it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    try {
      await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Slow server', text: 'Wait for it.' });
      let release!: () => void;
      const slow: MailTransport = { describe: 'slow', close() {}, send: () => new Promise<void>((resolve) => (release = resolve)) };
      const pass = deliverDueMail(handle.db, slow, { from, log });
      await vi.waitFor(() => expect(release).toBeTypeOf('function'));
      const before = Date.parse((await outbox())[0].next_attempt_at);
      // Twelve seconds of sending: the lease was renewed, so another worker then still finds nothing due.
      await vi.advanceTimersByTimeAsync(12_000);
      await vi.waitFor(async () => expect(Date.parse((await outbox())[0].next_attempt_at)).toBeGreaterThan(before));
      expect(await deliverDueMail(handle.db, transport, { from, log, now: new Date(before + 1000) })).toEqual({ sent: 0, failed: 0 });
      release();
      expect(await pass).toEqual({ sent: 1, failed: 0 });
      expect(smtp.received).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('claims a message only when a lane is free to send it: a crash holds back only what was being sent', async () => {
    for (let i = 0; i < 10; i++) await queueMail(handle.db, { to: `c${i}@kopi.test`, subject: `Order ${i}`, text: 'Thanks.' });
    const releases: Array<() => void> = [];
    const slow: MailTransport = { describe: 'slow', close() {}, send: () => new Promise<void>((resolve) => releases.push(resolve)) };
    const pass = deliverDueMail(handle.db, slow, { from, log, concurrency: 4 });
    await vi.waitFor(() => expect(releases).toHaveLength(4));
    // Four in flight, leased to this worker; the other six nobody's, due for any worker (were this one killed now).
    const rows = await outbox();
    expect(rows.filter((r) => r.claim_token !== null)).toHaveLength(4);
    expect(rows.filter((r) => r.claim_token === null && Date.parse(r.next_attempt_at) <= Date.now())).toHaveLength(6);
    const released = setInterval(() => releases.splice(0).forEach((release) => release()), 5);
    try {
      expect(await pass).toEqual({ sent: 10, failed: 0 });
    } finally {
      clearInterval(released);
    }
  });

  it('a worker that died holds its messages for at most a few seconds: a live worker sends them when the lease lapses', async () => {
    expect(LEASE_MS).toBeLessThanOrEqual(5_000);
    await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Stranded', text: 'Sent by the node that died.' });
    const claimedAt = Date.now();
    await claimDueMail(handle.db, { now: new Date(claimedAt), limit: 4, token: 'dead-worker' });
    // The live worker polls only every minute, but wakes when the lease lapses.
    const worker = startMailWorker({ db: handle.db, transport, from, log, intervalMs: 60_000 });
    try {
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: LEASE_MS + 3_000, interval: 50 });
      expect(Date.now() - claimedAt).toBeLessThan(LEASE_MS + 1_500);
    } finally {
      await worker.stop();
    }
  });

  it('parks a mail the server refuses for good after a few attempts; the owner sends it again', async () => {
    const address = 'nobody@example.com';
    const refusing = await startSmtpServer(0, { refuse: address });
    const to = transportTo(refusing.port);
    const id = await queueMail(handle.db, { to: address, subject: 'Your order', text: 'Thank you.' });
    let at = Date.now();
    try {
      for (let attempt = 1; attempt <= PERMANENT_ATTEMPTS; attempt++) {
        expect(await deliverDueMail(handle.db, to, { from, log, now: new Date(at) })).toEqual({ sent: 0, failed: 1 });
        at += retryDelayMs(attempt) + 1_000;
      }
      expect((await outbox())[0]).toMatchObject({ status: 'failed', attempts: PERMANENT_ATTEMPTS, refusals: PERMANENT_ATTEMPTS });
      // Parked: never tried again by itself, however late.
      expect(await deliverDueMail(handle.db, to, { from, log, now: new Date(at + 86_400_000) })).toEqual({ sent: 0, failed: 0 });
    } finally {
      to.close();
      await refusing.close();
    }
    // A server that is only down (no answer) is not a refusal: it is retried for ever.
    const down = transportTo(1);
    const other = await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Later', text: 'Hello.' });
    for (let attempt = 1; attempt <= PERMANENT_ATTEMPTS + 1; attempt++) {
      await deliverDueMail(handle.db, down, { from, log, now: new Date(at) });
      at += retryDelayMs(attempt) + 1_000;
    }
    down.close();
    expect((await outbox()).find((row) => row.id === other)).toMatchObject({ status: 'queued', refusals: 0 });
    // The owner fixed the address's mailbox: sent again, it goes out (and a sent one cannot be sent again).
    expect(await sendMailAgain(handle.db, id)).toBe(true);
    expect(await deliverDueMail(handle.db, transport, { from, log })).toMatchObject({ sent: 1 });
    expect((await outbox()).find((row) => row.id === id)).toMatchObject({ status: 'sent' });
    expect(await sendMailAgain(handle.db, id)).toBe(false);
  });

  it('gives up on a send that never answers, so one stuck message cannot hold up the queue', async () => {
    await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Stuck', text: 'No answer.' });
    await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Fine', text: 'Goes out.' });
    const half: MailTransport = {
      describe: 'half stuck',
      close() {},
      send: (mail) => (mail.subject === 'Stuck' ? new Promise<void>(() => {}) : transport.send(mail)),
    };
    expect(await deliverDueMail(handle.db, half, { from, log, sendTimeoutMs: 200 })).toEqual({ sent: 1, failed: 1 });
    const stuck = (await outbox()).find((row) => row.subject === 'Stuck')!;
    expect(stuck).toMatchObject({ status: 'queued', attempts: 1, claim_token: null });
    expect(stuck.last_error).toMatch(/no answer from the mail server/);
  });

  it('keeps a refused recipient’s address out of the log and the outbox: its first letter and domain only', async () => {
    const address = 'ola.nowak@example.com';
    const refusing = await startSmtpServer(0, { refuse: address });
    const to = transportTo(refusing.port);
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    try {
      await queueMail(handle.db, { to: address, subject: 'Your order', text: 'Thank you.' });
      expect(await deliverDueMail(handle.db, to, { from, log: pino({ level: 'warn' }, sink) })).toEqual({ sent: 0, failed: 1 });
    } finally {
      to.close();
      await refusing.close();
    }
    const [row] = await outbox();
    // What the server said stays (the owner needs to know why), with the address as the logs keep one.
    expect(row!.last_error).toMatch(/Recipient address rejected/);
    expect(row!.last_error).toContain('o…@example.com');
    expect(row!.last_error).not.toContain(address);
    expect(lines.join('')).toContain('o…@example.com');
    expect(lines.join('')).not.toContain(address);
  });

  it('queues inside a caller transaction and rolls back with it', async () => {
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await queueMail(trx, { to: 'owner@kopi.test', subject: 'Never', text: 'Rolled back.' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await outbox()).toEqual([]);
  });

  describe('worker', () => {
    let worker: ReturnType<typeof startMailWorker> | undefined;
    afterEach(async () => {
      await worker?.stop();
      worker = undefined;
    });

    it('delivers on start and when kicked, and coalesces kicks', async () => {
      await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Queued before start', text: 'Hello.' });
      const send = vi.spyOn(transport, 'send');
      try {
        worker = startMailWorker({ db: handle.db, transport, from, log, intervalMs: 60_000 });
        await vi.waitFor(() => expect(smtp.received).toHaveLength(1));

        await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Kicked', text: 'Hello again.' });
        worker.kick();
        worker.kick();
        worker.kick();
        await vi.waitFor(() => expect(smtp.received).toHaveLength(2));
        await worker.stop();
        expect(send).toHaveBeenCalledTimes(2);
        expect((await outbox()).every((row) => row.status === 'sent')).toBe(true);
      } finally {
        send.mockRestore();
      }
    });

    it('stop waits for the running pass', async () => {
      await queueMail(handle.db, { to: 'owner@kopi.test', subject: 'Slow', text: 'Hello.' });
      let release!: () => void;
      const slow: MailTransport = {
        describe: 'slow',
        close() {},
        send: () => new Promise<void>((resolve) => (release = resolve)),
      };
      worker = startMailWorker({ db: handle.db, transport: slow, from, log, intervalMs: 60_000 });
      await vi.waitFor(() => expect(release).toBeTypeOf('function'));
      let stopped = false;
      const stopping = worker.stop().then(() => (stopped = true));
      await new Promise((r) => setTimeout(r, 20));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect((await outbox())[0].status).toBe('sent');
    });
  });
});

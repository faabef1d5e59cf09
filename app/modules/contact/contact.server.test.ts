import { Writable } from 'node:stream';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, changeCatalogue, testDatabases } from '~/db/test-databases';
import { LIMITS } from '~/modules/limits/index.server';
import type { Contact } from './contact.schema';
import { contactMail, escapeHtml, submitContactMessage } from './contact.server';

const input: Contact = {
  name: 'Ana <b>Kowalska</b>',
  email: 'ana@example.com',
  subject: 'Order & "delivery"',
  message: 'Hello!\n<script>alert(1)</script>\nDo you ship to Kraków?',
};

describe('contact mail', () => {
  it('goes to the shop, replies to the visitor and carries everything in plain text', () => {
    const mail = contactMail(input, 'pl', 'shop@kopi.test');
    expect(mail.to).toBe('shop@kopi.test');
    expect(mail.replyTo).toBe('ana@example.com');
    expect(mail.subject).toBe('[Kopi contact] Order & "delivery"');
    expect(mail.text).toContain('Name: Ana <b>Kowalska</b>');
    expect(mail.text).toContain('Email: ana@example.com');
    expect(mail.text).toContain('Language: Polish (pl)');
    expect(mail.text).toContain(input.message);
  });

  it('escapes every value in the HTML version', () => {
    const { html } = contactMail(input, 'en', 'shop@kopi.test');
    expect(html).toContain('Ana &lt;b&gt;Kowalska&lt;/b&gt;');
    expect(html).toContain('Order &amp; &quot;delivery&quot;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(escapeHtml(`<a href="x" onclick='y'>&`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;');
  });

  it('keeps the subject on one line', () => {
    expect(contactMail({ ...input, subject: 'Hi\r\nBcc: someone@evil.test' }, 'en', 'shop@kopi.test').subject).toBe(
      '[Kopi contact] Hi Bcc: someone@evil.test',
    );
  });
});

describe.each(testDatabases())('submitContactMessage on %s', (_kind, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(() => handle.close());
  beforeEach(async () => {
    await handle.db.deleteFrom('contact_messages').execute();
    await handle.db.deleteFrom('mail_outbox').execute();
    await handle.db.deleteFrom('rate_events').execute();
  });

  it('stores the message and queues the mail together', async () => {
    const result = await submitContactMessage(handle.db, { input, locale: 'pl', contactTo: 'shop@kopi.test' });
    expect(result).toEqual({ ok: true, id: expect.any(String) });
    if (!result.ok) return;

    const stored = await handle.db.selectFrom('contact_messages').selectAll().execute();
    expect(stored).toEqual([{ id: result.id, ...input, locale: 'pl', created_at: expect.any(String), handled_at: null, handled_by: null, user_id: null }]);

    const outbox = await handle.db.selectFrom('mail_outbox').selectAll().execute();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      to_address: 'shop@kopi.test',
      reply_to: 'ana@example.com',
      subject: '[Kopi contact] Order & "delivery"',
      status: 'queued',
      attempts: 0,
    });
    expect(outbox[0].text_body).toContain('Language: Polish (pl)');
    expect(outbox[0].html_body).toContain('&lt;script&gt;');
  });

  it(`takes ${LIMITS.contact.perAddress} messages from one shared address and ${LIMITS.contact.perEmail} from one email in 10 minutes, ${LIMITS.contact.shopWide} from the whole shop; past that nothing is kept or sent`, async () => {
    const db = handle.db;
    const send = (email: string, ip: string) => submitContactMessage(db, { input: { ...input, email }, locale: 'en', contactTo: 'shop@kopi.test', ip });
    const limited = { ok: false, reason: 'rate_limited' };
    // Customers behind one address (an office, a café's Wi-Fi, a carrier's NAT) all reach the shop; a script there stops.
    for (let i = 0; i < LIMITS.contact.perAddress; i++) expect(await send(`guest.${i}@example.com`, '203.0.113.9')).toMatchObject({ ok: true });
    expect(await send('bot@example.com', '203.0.113.9')).toEqual(limited);
    // One sender, from wherever, a few times.
    for (let i = 0; i < LIMITS.contact.perEmail; i++) expect(await send('ana@example.com', `198.51.100.${i}`)).toMatchObject({ ok: true });
    expect(await send('ana@example.com', '198.51.100.99')).toEqual(limited);
    // A scan spread over addresses stops at the shop-wide ceiling.
    const sent = LIMITS.contact.perAddress + LIMITS.contact.perEmail;
    for (let i = sent; i < LIMITS.contact.shopWide; i++) expect(await send(`scan.${i}@example.com`, `10.0.${i}.1`)).toMatchObject({ ok: true });
    const kept = await db.selectFrom('contact_messages').select('id').execute();
    expect(kept).toHaveLength(LIMITS.contact.shopWide);
    expect(await send('one.more@example.com', '10.9.9.9')).toEqual(limited);
    expect(await db.selectFrom('contact_messages').select('id').execute()).toHaveLength(kept.length);
    expect(await db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(kept.length);
  });

  it('keeps nothing when the database fails, answers unavailable and logs nothing the visitor wrote', async () => {
    // The outbox table goes away for a moment, so the second insert of the transaction fails.
    await changeCatalogue(handle.db, sql`alter table mail_outbox rename to mail_outbox_away`);
    try {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const result = await submitContactMessage(handle.db, {
        input,
        locale: 'en',
        contactTo: 'shop@kopi.test',
        log: pino({ level: 'info' }, sink),
      });
      expect(result).toEqual({ ok: false, reason: 'unavailable' });
      expect(await handle.db.selectFrom('contact_messages').selectAll().execute()).toEqual([]);

      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('contact message could not be stored');
      for (const value of Object.values(input)) expect(lines[0]).not.toContain(value.slice(0, 8));
      expect(lines[0]).not.toContain('shop@kopi.test');
    } finally {
      await changeCatalogue(handle.db, sql`alter table mail_outbox_away rename to mail_outbox`);
    }
  });
});

/** The request log keeps no secrets and no one's address: not in the query, not inside an encoded `redirectTo`, not in a logged object. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { maskAddresses } from '~/lib/mask-addresses';
import { LOG_REDACT, withoutSecrets } from './app';

describe('the request log', () => {
  it('replaces order keys and keeps the rest of the URL', () => {
    expect(withoutSecrets('/order/abc?key=Q1w2E3r4T5y6U7i8O9p0aZ')).toBe('/order/abc?key=…');
    expect(withoutSecrets('/withdraw?order=abc&key=Q1w2E3r4T5y6U7i8O9p0aZ&x=1')).toBe('/withdraw?order=abc&key=…&x=1');
    expect(withoutSecrets('/auth?mode=login&redirectTo=%2Forder%2Fabc%3Fkey%3DQ1w2E3r4T5y6U7i8O9p0aZ')).toBe('/auth?mode=login&redirectTo=%2Forder%2Fabc%3Fkey%3D…');
    expect(withoutSecrets('/?q=monkey=1')).toBe('/?q=monkey=1');
    expect(withoutSecrets('/product/x?keyword=a')).toBe('/product/x?keyword=a');
  });

  it('replaces reset and unsubscribe tokens, sign-in codes and payment secrets', () => {
    expect(withoutSecrets('/auth/reset?token=abcDEF123_-x')).toBe('/auth/reset?token=…');
    expect(withoutSecrets('/back-in-stock?token=abc&lang=pl')).toBe('/back-in-stock?token=…&lang=pl');
    expect(withoutSecrets('/auth/google/callback?code=4%2F0AbC&state=xyz&scope=openid')).toBe('/auth/google/callback?code=…&state=…&scope=openid');
    expect(withoutSecrets('/checkout?payment_intent=pi_1&payment_intent_client_secret=pi_1_secret_abc')).toBe('/checkout?payment_intent=pi_1&payment_intent_client_secret=…');
  });

  it('keeps only the first letter of an email address, plain or encoded', () => {
    expect(withoutSecrets('/admin/customers?q=ola.nowak@example.com')).toBe('/admin/customers?q=o…@example.com');
    expect(withoutSecrets('/admin/customers?q=ola.nowak%40example.com&delete=1')).toBe('/admin/customers?q=o…%40example.com&delete=1');
    expect(withoutSecrets('/withdraw?email=Jan%2Bkawa%40kopi.pl')).toBe('/withdraw?email=J…%40kopi.pl');
  });

  it('masks addresses in any text as in URLs: a mail server’s refusal keeps its words, not the whole address', () => {
    expect(maskAddresses("EENVELOPE: Can't send mail - all recipients were rejected: 550 5.1.1 <ola.nowak@example.com>: Recipient address rejected")).toBe(
      "EENVELOPE: Can't send mail - all recipients were rejected: 550 5.1.1 <o…@example.com>: Recipient address rejected",
    );
    expect(maskAddresses('to Jan+kawa@kopi.pl and ewa@mail.example.co.uk')).toBe('to J…@kopi.pl and e…@mail.example.co.uk');
    expect(withoutSecrets('/admin/customers?q=ola.nowak@example.com')).toBe(`/admin/customers?q=${maskAddresses('ola.nowak@example.com')}`);
  });

  it('redacts passwords, tokens, cookies and addresses in anything logged', () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const log = pino({ redact: LOG_REDACT }, sink);
    log.info({ email: 'ola@example.com', password: 'hunter2', to: 'ola@example.com', req: { headers: { cookie: 'kopi_session=abc' } }, mail: { to_address: 'ola@example.com', token: 't0k3n' }, subject: 'Hi' }, 'x');
    const text = lines.join('');
    for (const secret of ['ola@example.com', 'hunter2', 'kopi_session=abc', 't0k3n']) expect(text).not.toContain(secret);
    expect(text).toContain('"subject":"Hi"');
  });
});

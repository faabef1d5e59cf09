import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeOfflineCertificate } from '../../tests/fixtures/offline-certificate';
import { ConfigError, loadConfig, prepareDataDir, requireSharedSecret } from './env.server';

const load = (env: Record<string, string>) => loadConfig(env, { readDotEnv: false });

describe('loadConfig', () => {
  it('runs with no configuration at all: SQLite in ./data, test payments, demo seed', () => {
    const config = load({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('data/kopi.db') });
    expect(config.payments.provider).toBe('test');
    expect(config.seedDemo).toBe(true);
    expect(config.secureCookies).toBe(false);
  });

  it('reads PostgreSQL URLs, https public URLs and booleans', () => {
    const config = load({ DATABASE_URL: 'postgres://kopi:kopi@db:5432/kopi', PUBLIC_URL: 'https://kopi.example', SEED_DEMO: 'false' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://kopi:kopi@db:5432/kopi' });
    expect(config.secureCookies).toBe(true);
    expect(config.seedDemo).toBe(false);
  });

  it('lists every problem with the variable it concerns', () => {
    try {
      load({ PORT: 'eighty', PUBLIC_URL: 'not a url', SMTP_URL: 'mail.example.com' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      for (const name of ['PORT', 'PUBLIC_URL', 'SMTP_URL']) expect(message).toContain(name);
    }
    expect(() => load({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_PUBLISHABLE_KEY[\s\S]*STRIPE_WEBHOOK_SECRET/);
  });

  it('reads the S3 settings, path-style endpoint and public URL optional', () => {
    expect(load({ S3_BUCKET: 'kopi-images' }).s3).toEqual({ bucket: 'kopi-images', region: 'us-east-1', endpoint: undefined, publicUrl: undefined });
    expect(load({ S3_BUCKET: 'kopi', S3_REGION: 'eu-central-1', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_PUBLIC_URL: 'https://cdn.example.test' }).s3).toEqual({
      bucket: 'kopi',
      region: 'eu-central-1',
      endpoint: 'http://127.0.0.1:9000',
      publicUrl: 'https://cdn.example.test',
    });
    expect(load({}).s3).toBeUndefined();
  });

  it('refuses S3 settings that cannot work', () => {
    expect(() => load({ S3_BUCKET: 'Not A Bucket' })).toThrow(/S3_BUCKET must be a bucket name/);
    expect(() => load({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_ENDPOINT is set but S3_BUCKET is not/);
    expect(() => load({ S3_BUCKET: 'kopi', S3_PUBLIC_URL: 'not a url' })).toThrow(/S3_PUBLIC_URL/);
  });

  it('takes InPost shipments only with both the ShipX token and the organisation', () => {
    expect(load({}).shipx).toBeUndefined();
    expect(load({ SHIPX_TOKEN: 'token', SHIPX_ORGANIZATION_ID: '1234', SHIPX_API_URL: 'http://127.0.0.1:3391/' }).shipx).toEqual({
      apiUrl: 'http://127.0.0.1:3391',
      token: 'token',
      organizationId: '1234',
      sendingMethod: 'dispatch_order',
    });
    expect(() => load({ SHIPX_TOKEN: 'token' })).toThrow(/SHIPX_ORGANIZATION_ID is required when SHIPX_TOKEN is set/);
    expect(() => load({ SHIPX_ORGANIZATION_ID: '1234' })).toThrow(/SHIPX_TOKEN is required/);
    expect(() => load({ SHIPX_TOKEN: 'token', SHIPX_ORGANIZATION_ID: 'kopi' })).toThrow(/SHIPX_ORGANIZATION_ID must be the organisation number/);
    expect(() => load({ SHIPX_SENDING_METHOD: 'pigeon' })).toThrow(/SHIPX_SENDING_METHOD/);
  });

  it('sends nothing to KSeF unless told to; then it needs the environment named, and a token shaped as KSeF gives it, never echoed', () => {
    expect(load({}).ksef).toMatchObject({ sender: 'accounting', consumerInvoices: false, token: undefined });
    expect(() => load({ KSEF_SENDER: 'kopi' })).toThrow(/KSEF_ENV is required when KSEF_SENDER=kopi/);
    expect(load({ KSEF_SENDER: 'kopi', KSEF_ENV: 'production' }).ksef).toMatchObject({ environment: 'production', apiUrl: 'https://api.ksef.mf.gov.pl/v2', qrUrl: 'https://qr.ksef.mf.gov.pl' });
    expect(load({ KSEF_SENDER: 'kopi', KSEF_ENV: 'test' }).ksef).toMatchObject({ apiUrl: 'https://api-test.ksef.mf.gov.pl/v2', qrUrl: 'https://qr-test.ksef.mf.gov.pl' });
    // A stand-in's address: its QR links are the test environment's.
    expect(load({ KSEF_SENDER: 'kopi', KSEF_ENV: 'http://127.0.0.1:3940/v2/' }).ksef).toMatchObject({ environment: 'custom', apiUrl: 'http://127.0.0.1:3940/v2', qrUrl: 'https://qr-test.ksef.mf.gov.pl' });
    expect(() => load({ KSEF_ENV: 'prod' })).toThrow(/KSEF_ENV must be test, demo, production/);
    const token = `20261204-EC-0123456789-ABCDEF0123-4F|nip-5260250274|${'a'.repeat(64)}`;
    expect(load({ KSEF_TOKEN: token }).ksef.token).toBe(token);
    const half = 'secret-half-of-a-token';
    let message = '';
    try {
      load({ KSEF_TOKEN: half });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/KSEF_TOKEN is not a KSeF token/);
    expect(message).not.toContain(half);
    expect(() => load({ KSEF_SENDER: 'shop' })).toThrow(/KSEF_SENDER must be kopi/);
  });

  it('reads the offline KSeF certificate and its key (paths or PEM), both or neither, and stops on one that is not right', () => {
    const files = makeOfflineCertificate({ passphrase: 'palarnia' });
    try {
      expect(load({}).ksef.offlineCertificate).toBeUndefined();
      const config = load({ KSEF_OFFLINE_CERTIFICATE: files.certificate, KSEF_OFFLINE_KEY: files.key, KSEF_OFFLINE_KEY_PASSPHRASE: 'palarnia' });
      expect(config.ksef.offlineCertificate?.serialNumber).toMatch(/^[0-9A-F]+$/);
      expect(load({ KSEF_OFFLINE_CERTIFICATE: files.certificatePem, KSEF_OFFLINE_KEY: files.keyPem, KSEF_OFFLINE_KEY_PASSPHRASE: 'palarnia' }).ksef.offlineCertificate?.serialNumber).toBe(config.ksef.offlineCertificate?.serialNumber);
      expect(() => load({ KSEF_OFFLINE_CERTIFICATE: files.certificate })).toThrow(/KSEF_OFFLINE_KEY is required when KSEF_OFFLINE_CERTIFICATE is set/);
      expect(() => load({ KSEF_OFFLINE_KEY: files.key })).toThrow(/KSEF_OFFLINE_CERTIFICATE is required when KSEF_OFFLINE_KEY is set/);
      expect(() => load({ KSEF_OFFLINE_KEY_PASSPHRASE: 'palarnia' })).toThrow(/KSEF_OFFLINE_KEY is required when KSEF_OFFLINE_KEY_PASSPHRASE is set/);
      let message = '';
      try {
        load({ KSEF_OFFLINE_CERTIFICATE: files.certificate, KSEF_OFFLINE_KEY: files.key, KSEF_OFFLINE_KEY_PASSPHRASE: 'wrong-passphrase' });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(/KSEF_OFFLINE_KEY is not a readable PEM private key \(or KSEF_OFFLINE_KEY_PASSPHRASE is not its passphrase\)/);
      expect(() => load({ KSEF_OFFLINE_CERTIFICATE: files.key, KSEF_OFFLINE_KEY: files.key })).toThrow(/KSEF_OFFLINE_CERTIFICATE is not a readable PEM certificate/);
    } finally {
      files.remove();
    }
  });
});

describe('requireSharedSecret', () => {
  it('asks for SESSION_SECRET with PostgreSQL, where nodes must share it, and not with SQLite', () => {
    expect(() => requireSharedSecret(load({ DATABASE_URL: 'postgres://kopi@127.0.0.1/kopi' }))).toThrow(/SESSION_SECRET is required with PostgreSQL/);
    expect(() => requireSharedSecret(load({ DATABASE_URL: 'postgres://kopi@127.0.0.1/kopi', SESSION_SECRET: 'x'.repeat(32) }))).not.toThrow();
    expect(() => requireSharedSecret(load({}))).not.toThrow();
  });
});

describe('prepareDataDir', () => {
  it('generates a session secret once and keeps it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-config-'));
    const first = prepareDataDir(load({ DATA_DIR: dir }));
    const second = prepareDataDir(load({ DATA_DIR: dir }));
    expect(first.sessionSecret).toHaveLength(43);
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(prepareDataDir(load({ DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(40) })).sessionSecret).toBe('x'.repeat(40));
    fs.rmSync(dir, { recursive: true });
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '~/db/database.server';
import { findUserByEmail, logIn } from '~/modules/accounts/index.server';
import { run } from './commands';

describe('kopi command', () => {
  let dir: string;
  const saved = { ...process.env };
  let lines: string[];
  const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-cli-'));
    process.env.DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    lines = [];
  });
  afterEach(() => {
    process.env = { ...saved };
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('migrates, seeds an empty catalogue once, and refuses unknown commands', async () => {
    expect(await run(['migrate'], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/up to date/);
    expect(await run(['seed'], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/Added \d+ demo products/);
    expect(await run(['seed'], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/already has \d+ products/);
    expect(await run(['frobnicate'], out)).toBe(1);
    expect(lines.at(-1)).toMatch(/Unknown command/);
  }, 60_000);

  it('backs up a SQLite shop with its pictures and restores it; refuses PostgreSQL and a missing --to', async () => {
    expect(await run(['create-admin', '--email', 'owner@example.com', '--password', 'a long password'], out)).toBe(0);
    fs.mkdirSync(path.join(dir, 'uploads', 'products', 'p1'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'uploads', 'products', 'p1', 'k-320.webp'), 'webp');
    const backups = path.join(dir, 'backups');
    expect(await run(['backup', '--to', backups], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/^Backed up the database \([\d.]+ MB\) and 1 picture files to .*kopi-backup-/);
    const [made] = fs.readdirSync(backups);

    // The shop loses its admin and its pictures; the backup brings both back.
    fs.rmSync(path.join(dir, 'uploads'), { recursive: true });
    expect(await run(['revoke-admin', '--email', 'owner@example.com'], out)).toBe(0);
    expect(await run(['restore', '--from', path.join(backups, made)], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/^Restored .* The database it replaced is kept as .*kopi\.db\.before-restore-/);
    expect((await account('owner@example.com')).user?.isAdmin).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'uploads', 'products', 'p1', 'k-320.webp'), 'utf8')).toBe('webp');

    expect(await run(['backup'], out)).toBe(1);
    expect(lines.at(-1)).toMatch(/^backup needs --to DIR/);
    expect(await run(['restore', '--from', path.join(dir, 'nowhere')], out)).toBe(1);
    expect(lines.at(-1)).toMatch(/is not a Kopi backup/);
    process.env.DATABASE_URL = 'postgres://kopi:kopi@127.0.0.1:5432/kopi_test';
    process.env.SESSION_SECRET = 'x'.repeat(40);
    expect(await run(['backup', '--to', backups], out)).toBe(1);
    expect(lines.at(-1)).toMatch(/is for SQLite.*pg_dump/);
  }, 60_000);

  /** Reads the account back from the database the command wrote. */
  async function account(email: string, password?: string) {
    const database = openDatabase({ kind: 'sqlite', file: path.join(dir, 'kopi.db') });
    try {
      const user = await findUserByEmail(database.db, email);
      const login = password ? await logIn(database.db, { email, password, ip: null }) : null;
      return { user, login };
    } finally {
      await database.close();
    }
  }

  it('creates an admin, then promotes an existing account and sets its password, never printing it', async () => {
    const password = 'Sekret-admina-123';
    expect(await run(['create-admin', '--email', ' Ola@Kopi.Test ', '--password', password, '--name', 'Ola'], out)).toBe(0);
    expect(lines.at(-1)).toBe('Created the admin account ola@kopi.test.');
    expect(await account('ola@kopi.test', password)).toMatchObject({
      user: { email: 'ola@kopi.test', displayName: 'Ola', isAdmin: true },
      login: { ok: true },
    });

    expect(await run(['create-admin', '--email=ola@kopi.test', `--password=${password}-new`], out)).toBe(0);
    expect(lines.at(-1)).toMatch(/^ola@kopi\.test already had an account: it is now an admin/);
    expect((await account('ola@kopi.test', `${password}-new`)).login).toMatchObject({ ok: true });
    expect(lines.join('\n')).not.toContain(password);
  }, 60_000);

  it('grants and revokes the admin role, and says so when there is no such account', async () => {
    expect(await run(['create-admin', '--email', 'boss@kopi.test', '--password', 'boss password'], out)).toBe(0);
    expect(await run(['revoke-admin', '--email', 'BOSS@kopi.test'], out)).toBe(0);
    expect(lines.at(-1)).toBe('boss@kopi.test is no longer an admin.');
    expect((await account('boss@kopi.test')).user?.isAdmin).toBe(false);
    expect(await run(['grant-admin', '--email', 'boss@kopi.test'], out)).toBe(0);
    expect(lines.at(-1)).toBe('boss@kopi.test is now an admin.');
    expect((await account('boss@kopi.test')).user?.isAdmin).toBe(true);

    expect(await run(['grant-admin', '--email', 'nobody@kopi.test'], out)).toBe(1);
    expect(lines.at(-1)).toMatch(/^No account has the email nobody@kopi\.test\. To create one: npm run kopi -- create-admin/);
    expect(await run(['revoke-admin', '--email', 'nobody@kopi.test'], out)).toBe(1);
    expect(lines.at(-1)).toBe('No account has the email nobody@kopi.test.');
  }, 60_000);

  it.each([
    [['create-admin'], 'create-admin needs --email and --password.'],
    [['create-admin', '--email', 'ola@kopi.test'], 'create-admin needs --email and --password.'],
    [['create-admin', '--email', 'not-an-email', '--password', 'long enough'], 'Please enter a valid email address.'],
    [['create-admin', '--email', 'ola@kopi.test', '--password', 'short'], 'Password must be at least 8 characters long.'],
    [['create-admin', '--email', 'ola@kopi.test', '--password', 'long enough', '--name', ' '], '--name must be 1 to 100 characters.'],
    [['create-admin', '--email', 'ola@kopi.test', '--pasword', 'typo-secret'], 'create-admin accepts only --email, --password, --name.'],
    [['create-admin', '--email', 'ola@kopi.test', '--password'], 'Each of --email, --password, --name needs a value.'],
    [['grant-admin'], 'grant-admin needs --email.'],
    [['grant-admin', 'ola@kopi.test'], 'grant-admin got an argument it does not understand.'],
    [['revoke-admin', '--email', 'nope'], 'Please enter a valid email address.'],
    [['migrate', 'now'], 'migrate takes no arguments.'],
  ])('refuses %j with a clear message and exit code 1', async (argv, message) => {
    expect(await run(argv, out)).toBe(1);
    expect(lines.at(-1)?.split('\n')[0]).toBe(message);
    expect(lines.join('\n')).not.toContain('typo-secret');
    // Nothing was written: the database was not even opened.
    expect(fs.existsSync(path.join(dir, 'kopi.db'))).toBe(false);
  });
});

/**
 * `kopi backup` / `kopi restore` round-trip a SQLite shop that is being written to: the copy is one
 * consistent snapshot (two tables written in the same transactions stay equal), passes SQLite's integrity
 * check, carries the pictures, and a restored shop opens and migrates; what was there before is kept.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupError, backupSqlite, restoreSqlite } from './backup.server';
import { migrateToLatest, now, openDatabase } from './database.server';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-backup-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const counts = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const n = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return { messages: n('contact_messages'), activity: n('activity_log') };
  } finally {
    db.close();
  }
};

describe('kopi backup and restore (SQLite)', () => {
  it('copies a database that is being written to as one consistent snapshot, with its pictures, and restores it', async () => {
    const dataDir = path.join(root, 'shop');
    const file = path.join(dataDir, 'kopi.db');
    const uploads = path.join(dataDir, 'uploads');
    fs.mkdirSync(path.join(uploads, 'products', 'p1'), { recursive: true });
    fs.writeFileSync(path.join(uploads, 'products', 'p1', 'a-320.webp'), 'picture a');
    const shop = openDatabase({ kind: 'sqlite', file });
    await migrateToLatest(shop.db);

    // The shop keeps writing: a message and its activity entry in one transaction, and a new picture now and then.
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const id = `m${written}`;
        await shop.db.transaction().execute(async (trx) => {
          await trx.insertInto('contact_messages').values({ id, name: 'Ola', email: 'ola@example.com', subject: 's', message: 'x'.repeat(2000), locale: 'en', created_at: now() }).execute();
          await trx.insertInto('activity_log').values({ id, actor_id: null, actor_email: 'shop', action: 'message.handled', subject_type: 'message', subject_id: id, subject_label: 's', details: '{}', created_at: now() }).execute();
        });
        written++;
        if (written % 50 === 0) fs.writeFileSync(path.join(uploads, 'products', 'p1', `n${written}-320.webp`), 'picture');
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    while (written < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    const result = await backupSqlite({ file, uploadsDir: uploads, to: path.join(root, 'backups') });
    const atEnd = written;
    await new Promise((resolve) => setTimeout(resolve, 50));
    stop = true;
    await writer;

    const copied = counts(path.join(result.dir, 'kopi.db'));
    expect(copied.messages).toBe(copied.activity);
    expect(copied.messages).toBeGreaterThanOrEqual(300);
    expect(copied.messages).toBeLessThanOrEqual(atEnd);
    expect(counts(file).messages).toBeGreaterThan(copied.messages);
    expect(fs.readFileSync(path.join(result.dir, 'uploads', 'products', 'p1', 'a-320.webp'), 'utf8')).toBe('picture a');
    expect(result.pictures).toBeGreaterThanOrEqual(1 + 6);
    await shop.close();

    // Restore into a fresh data directory: it opens, migrates (nothing to do) and holds the snapshot.
    const fresh = path.join(root, 'restored', 'kopi.db');
    expect(restoreSqlite({ from: result.dir, file: fresh, uploadsDir: path.join(root, 'restored', 'uploads') })).toEqual({ keptAs: null });
    const restored = openDatabase({ kind: 'sqlite', file: fresh });
    await migrateToLatest(restored.db);
    expect(Number((await restored.db.selectFrom('contact_messages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(copied.messages);
    await restored.close();
    expect(fs.existsSync(path.join(root, 'restored', 'uploads', 'products', 'p1', 'a-320.webp'))).toBe(true);

    // Restore over the running shop's files (stopped now): the newer database is kept beside it.
    const { keptAs } = restoreSqlite({ from: result.dir, file, uploadsDir: uploads });
    expect(keptAs).toMatch(/kopi\.db\.before-restore-/);
    expect(counts(keptAs!).messages).toBe(written);
    expect(counts(file).messages).toBe(copied.messages);
  });

  it('says what is wrong instead of copying nothing or restoring something else', async () => {
    await expect(backupSqlite({ file: path.join(root, 'none.db'), uploadsDir: null, to: root })).rejects.toThrow(BackupError);
    fs.mkdirSync(path.join(root, 'not-a-backup'), { recursive: true });
    expect(() => restoreSqlite({ from: path.join(root, 'not-a-backup'), file: path.join(root, 'x.db'), uploadsDir: null })).toThrow(/not a Kopi backup/);
    fs.mkdirSync(path.join(root, 'damaged'), { recursive: true });
    fs.writeFileSync(path.join(root, 'damaged', 'kopi.db'), 'this is not a database');
    expect(() => restoreSqlite({ from: path.join(root, 'damaged'), file: path.join(root, 'y.db'), uploadsDir: null })).toThrow();
    expect(fs.existsSync(path.join(root, 'y.db'))).toBe(false);
  });
});

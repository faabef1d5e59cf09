/**
 * Two processes on one SQLite file (the shop starting and the `kopi` command): a transaction takes the write lock when it
 * begins, so one that has read never fails at its first write because the other wrote meanwhile
 * (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out) — the other waits its turn instead.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.server';

describe('SQLite transactions beside another process', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kopi-lock-')), 'kopi.db');
  const shop = openDatabase({ kind: 'sqlite', file });
  // As while the shop starts (migrations, the demo seed).
  shop.startingUp?.(true);
  // A second connection that does not wait at all, so "it would have to wait" shows as an error at once.
  const command = openDatabase({ kind: 'sqlite', file }, { busyTimeoutMs: 0 });
  afterAll(async () => {
    await shop.close();
    await command.close();
  });

  it('holds the write lock from the start of a transaction: the other connection waits, the transaction writes after reading', async () => {
    await sql`create table notes (id integer primary key, text text not null)`.execute(shop.db);
    await shop.db.transaction().execute(async (trx) => {
      await sql`select count(*) from notes`.execute(trx);
      // Meanwhile the other process tries to write: it must wait (here: it would wait, so it is refused).
      await expect(sql`insert into notes (text) values ('from the command')`.execute(command.db)).rejects.toThrow(/locked|busy/i);
      await sql`insert into notes (text) values ('from the shop')`.execute(trx);
    });
    await sql`insert into notes (text) values ('from the command, after')`.execute(command.db);
    const rows = await sql<{ text: string }>`select text from notes order by id`.execute(shop.db);
    expect(rows.rows.map((r) => r.text)).toEqual(['from the shop', 'from the command, after']);
  });
});

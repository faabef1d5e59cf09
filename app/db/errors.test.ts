import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './errors.server';
import { type TestDatabase, testDatabases } from './test-databases';

describe.each(testDatabases())('isUniqueViolation on %s', (_name, open) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await open();
    await sql`create table uniq (id integer primary key, email text unique, name text not null)`.execute(handle.db);
    await sql`insert into uniq (id, email, name) values (1, 'a@example.test', 'A')`.execute(handle.db);
  });
  afterAll(() => handle.close());

  const failure = (query: ReturnType<typeof sql>) => query.execute(handle.db).then(() => null, (error: unknown) => error);

  it('is true for a unique column and a primary key, false for other constraint failures', async () => {
    expect(isUniqueViolation(await failure(sql`insert into uniq (id, email, name) values (2, 'a@example.test', 'B')`))).toBe(true);
    expect(isUniqueViolation(await failure(sql`insert into uniq (id, email, name) values (1, 'b@example.test', 'B')`))).toBe(true);
    expect(isUniqueViolation(await failure(sql`insert into uniq (id, email, name) values (3, 'c@example.test', null)`))).toBe(false);
    expect(isUniqueViolation(new Error('anything else'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});

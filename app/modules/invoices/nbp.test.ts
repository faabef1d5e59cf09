/**
 * NBP's average rate for an invoice in euros: the table of the last working day before the tax point, asked of
 * NBP's Web API (here its stand-in, tests/doubles/nbp.js, in a process of its own), kept once known; null when NBP
 * is down, unreachable or answers nonsense.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnStandIn } from '../../../tests/doubles/spawn';
import { createNbpRates, latestRate } from './nbp.server';

const PORT = 3361 + Number(process.env.VITEST_POOL_ID ?? 0);
const nbpUrl = `http://127.0.0.1:${PORT}`;
let standIn: ChildProcess;

beforeAll(async () => {
  standIn = await spawnStandIn('nbp.js', PORT);
});
afterAll(() => {
  standIn.kill();
});

const answered = async () => ((await (await fetch(`${nbpUrl}/__requests`)).json()) as { answered: number }).answered;
/** What NBP publishes for that one day, asked directly. */
async function tableOf(day: string) {
  const json = (await (await fetch(`${nbpUrl}/api/exchangerates/rates/a/eur/${day}/?format=json`)).json()) as { rates: { no: string; effectiveDate: string; mid: number }[] };
  const [rate] = json.rates;
  return { mid: rate!.mid, table: rate!.no, date: rate!.effectiveDate };
}

describe("NBP's average rate", () => {
  it('is the table of the last working day before the day paid, in Warsaw: over a weekend, a holiday and midnight', async () => {
    const rates = createNbpRates({ baseUrl: nbpUrl });
    // Paid on Monday 2 November 2026: Sunday 1 November is All Saints' Day, so Friday's table.
    expect(await rates.rateBefore('EUR', new Date('2026-11-02T09:00:00Z'))).toEqual(await tableOf('2026-10-30'));
    // Paid on the Tuesday after Easter Monday (6 April 2026): Good Friday is a working day in Poland.
    expect(await rates.rateBefore('eur', new Date('2026-04-07T08:00:00Z'))).toEqual(await tableOf('2026-04-03'));
    // 23:30 UTC on Tuesday 10 November is Wednesday in Warsaw, the day after: Tuesday's table, not Monday's.
    expect(await rates.rateBefore('EUR', new Date('2026-11-10T23:30:00Z'))).toEqual(await tableOf('2026-11-10'));
    // 11 November is Independence Day: paid on the 12th, the 10th's table.
    const twelfth = await rates.rateBefore('EUR', new Date('2026-11-12T10:00:00Z'));
    expect(twelfth).toEqual(await tableOf('2026-11-10'));
    expect(twelfth!.table).toMatch(/^\d{3}\/A\/NBP\/2026$/);
  });

  it('asks NBP once per day; a past day’s table never changes', async () => {
    const rates = createNbpRates({ baseUrl: nbpUrl });
    const before = await answered();
    const first = await rates.rateBefore('EUR', new Date('2026-10-21T10:00:00Z'));
    const again = await rates.rateBefore('EUR', new Date('2026-10-21T15:00:00Z'));
    expect(again).toEqual(first);
    expect((await answered()) - before).toBe(1);
  });

  it('is null when NBP is down, cannot be reached, has no table or names another currency; then asked again', async () => {
    const rates = createNbpRates({ baseUrl: nbpUrl });
    await fetch(`${nbpUrl}/__down`, { method: 'POST' });
    try {
      expect(await rates.rateBefore('EUR', new Date('2026-10-14T10:00:00Z'))).toBeNull();
    } finally {
      await fetch(`${nbpUrl}/__up`, { method: 'POST' });
    }
    // Not remembered as missing: asked again once NBP is back.
    expect(await rates.rateBefore('EUR', new Date('2026-10-14T10:00:00Z'))).toEqual(await tableOf('2026-10-13'));
    expect(await createNbpRates({ baseUrl: 'http://127.0.0.1:9' }).rateBefore('EUR', new Date('2026-10-14T10:00:00Z'))).toBeNull();
    // A currency NBP's table A does not list (the stand-in's 404 "Brak danych"), and no currency code at all.
    expect(await rates.rateBefore('XYZ', new Date('2026-10-14T10:00:00Z'))).toBeNull();
    expect(await rates.rateBefore('../', new Date('2026-10-14T10:00:00Z'))).toBeNull();
  });

  it('reads only a well-formed answer for that currency, up to that day', () => {
    const rates = [
      { no: '199/A/NBP/2026', effectiveDate: '2026-10-13', mid: 4.2 },
      { no: '200/A/NBP/2026', effectiveDate: '2026-10-14', mid: 4.3 },
    ];
    expect(latestRate({ code: 'EUR', rates }, 'EUR', '2026-10-14')).toEqual({ mid: 4.3, table: '200/A/NBP/2026', date: '2026-10-14' });
    expect(latestRate({ code: 'EUR', rates }, 'EUR', '2026-10-13')).toEqual({ mid: 4.2, table: '199/A/NBP/2026', date: '2026-10-13' });
    expect(latestRate({ code: 'USD', rates }, 'EUR', '2026-10-14')).toBeNull();
    expect(latestRate({ code: 'EUR', rates: [{ no: 'x', effectiveDate: '2026-10-14', mid: -1 }] }, 'EUR', '2026-10-14')).toBeNull();
    expect(latestRate({ code: 'EUR', rates: [{ no: 'x', effectiveDate: 'yesterday', mid: 4 }] }, 'EUR', '2026-10-14')).toBeNull();
    expect(latestRate({ code: 'EUR' }, 'EUR', '2026-10-14')).toBeNull();
  });
});

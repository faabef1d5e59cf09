import { describe, expect, it } from 'vitest';
import { spread } from '~/lib/spread';
import { EU_COUNTRIES } from '~/modules/delivery/countries';
import { SHIPPED_RATES } from './rates';
import { formatRate, grossAtRate, orderVat, parseRate, refundVat, sumByRate, vatIn, vatPart } from './vat';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('VAT inside a gross amount', () => {
  it('takes the tax out of a price as a Polish receipt does', () => {
    // 12.30 zł at 23% is 10.00 net + 2.30 VAT; 24.99 € at 7% is 23.36 + 1.63.
    expect(vatPart(1230, 2300)).toEqual({ rateBp: 2300, grossCents: 1230, netCents: 1000, vatCents: 230 });
    expect(vatPart(2499, 700)).toEqual({ rateBp: 700, grossCents: 2499, netCents: 2336, vatCents: 163 });
    expect(vatIn(0, 2300)).toBe(0);
    expect(vatIn(1000, 0)).toBe(0);
    // Finland's 13.5% and a refund (negative) round alike.
    expect(vatIn(1135, 1350)).toBe(135);
    expect(vatIn(-1135, 1350)).toBe(-135);
  });

  it('moves a gross price to another rate: the same net price, the other VAT on top, to the cent', () => {
    // 24.60 € at 23% is 20.00 net: 21.40 € at 7%, 25.40 € at 27%; the same rate changes nothing.
    expect(grossAtRate(2460, 2300, 700)).toBe(2140);
    expect(grossAtRate(2460, 2300, 2700)).toBe(2540);
    expect(grossAtRate(2499, 2300, 2300)).toBe(2499);
    expect(grossAtRate(0, 2300, 700)).toBe(0);
    // Half a cent rounds away from zero: 1.23 € at 23% is 1.00 net, 1.055 € at 5.5% → 1.06 €.
    expect(grossAtRate(123, 2300, 550)).toBe(106);
    // For every shipped rate the net price stays within half a cent of the original's.
    const next = random(7);
    for (let i = 0; i < 2000; i++) {
      const gross = 1 + Math.floor(next() * 100_000);
      const country = EU_COUNTRIES[Math.floor(next() * EU_COUNTRIES.length)]!;
      const to = SHIPPED_RATES[country].coffee;
      const moved = grossAtRate(gross, 2300, to);
      expect(Math.abs((moved * 10_000) / (10_000 + to) - (gross * 10_000) / 12_300)).toBeLessThanOrEqual(0.5 + 1e-9);
    }
  });

  it('ships a coffee and a standard rate for each of the 27 countries, within 0–27%', () => {
    for (const country of EU_COUNTRIES) {
      for (const rate of Object.values(SHIPPED_RATES[country])) expect(rate).toBeGreaterThanOrEqual(0), expect(rate).toBeLessThanOrEqual(2700);
    }
    expect(SHIPPED_RATES.PL).toEqual({ coffee: 2300, other: 2300 });
    expect(SHIPPED_RATES.DE).toEqual({ coffee: 700, other: 1900 });
  });

  it('reads and writes a rate as people do', () => {
    expect(parseRate('23')).toBe(2300);
    expect(parseRate('5,5')).toBe(550);
    expect(parseRate(' 13.5 % ')).toBe(1350);
    expect(parseRate('0')).toBe(0);
    expect(parseRate('50')).toBe(5000);
    for (const bad of ['51', '-1', '', 'abc', '23.456', '1e2', '100']) expect(parseRate(bad)).toBeNull();
    expect(formatRate(2300, 'en')).toBe('23%');
    expect(formatRate(550, 'pl')).toBe('5,5%');
    expect(formatRate(2550, 'en')).toBe('25.5%');
  });

  it('delivery follows its goods: their rate, or split over their rates by what the goods at each cost', () => {
    expect(orderVat([{ grossCents: 2500, rateBp: 700 }], 499).delivery).toEqual([vatPart(499, 700)]);
    const mixed = orderVat(
      [
        { grossCents: 3000, rateBp: 700 },
        { grossCents: 1000, rateBp: 1900 },
      ],
      400,
    );
    expect(mixed.delivery).toEqual([vatPart(100, 1900), vatPart(300, 700)]);
    expect(orderVat([{ grossCents: 2500, rateBp: 2300 }], 0).delivery).toEqual([]);
  });

  it('10,000 random carts: every line and the delivery add up to the charge to the cent, after any discount', () => {
    const next = random(20261127);
    const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
    const rates = [0, 300, 550, 700, 1000, 1350, 2100, 2300, 2550, 2700];
    for (let cart = 0; cart < 10_000; cart += 1) {
      const lines = Array.from({ length: int(1, 6) }, () => ({ unit: int(1, 20_000), quantity: int(1, 99), rateBp: rates[int(0, rates.length - 1)]! }));
      const goods = lines.map((l) => l.unit * l.quantity);
      const goodsTotal = goods.reduce((sum, g) => sum + g, 0);
      // A code's discount, spread over the lines as checkout spreads it (never above a line).
      const discount = next() < 0.5 ? int(0, Math.max(0, goodsTotal - 100)) : 0;
      const shares = spread(discount, goods);
      const delivery = next() < 0.3 ? 0 : int(1, 3_499);
      const charged = goodsTotal - discount + delivery;

      const vat = orderVat(
        lines.map((l, i) => ({ grossCents: goods[i]! - shares[i]!, rateBp: l.rateBp })),
        delivery,
      );
      const parts = [...vat.lines, ...vat.delivery];
      for (const p of parts) {
        expect(p.netCents + p.vatCents).toBe(p.grossCents);
        expect(p.vatCents).toBe(vatIn(p.grossCents, p.rateBp));
        expect(p.vatCents).toBeGreaterThanOrEqual(0);
      }
      expect(parts.reduce((sum, p) => sum + p.grossCents, 0)).toBe(charged);
      const summary = sumByRate(parts);
      expect(summary.reduce((sum, p) => sum + p.netCents + p.vatCents, 0)).toBe(charged);
      // A refund of it all returns exactly what was charged at each rate; a part of it never more.
      expect(refundVat(parts, charged)).toEqual(summary);
      const some = int(1, charged);
      const refunded = refundVat(parts, some);
      expect(refunded.reduce((sum, p) => sum + p.grossCents, 0)).toBe(some);
      for (const r of refunded) expect(r.grossCents).toBeLessThanOrEqual(summary.find((s) => s.rateBp === r.rateBp)!.grossCents);
    }
  });
});

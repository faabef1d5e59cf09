import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname, 'locales');
const flatten = (o: object, pre = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' ? flatten(v, `${pre}${k}.`) : [`${pre}${k}`]));
const base = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, '');

describe('translation catalogues', () => {
  const files = fs.readdirSync(path.join(dir, 'en'));
  it.each(files)('%s has the same keys in en and pl, with every Polish plural form', (file) => {
    const en = flatten(JSON.parse(fs.readFileSync(path.join(dir, 'en', file), 'utf8')));
    const pl = flatten(JSON.parse(fs.readFileSync(path.join(dir, 'pl', file), 'utf8')));
    expect(new Set(pl.map(base))).toEqual(new Set(en.map(base)));
    for (const plural of new Set(pl.filter((k) => /_(one|other)$/.test(k)).map(base))) {
      for (const form of ['one', 'few', 'many', 'other']) expect(pl).toContain(`${plural}_${form}`);
    }
    for (const plural of new Set(en.filter((k) => /_(one|other)$/.test(k)).map(base))) {
      for (const form of ['one', 'other']) expect(en).toContain(`${plural}_${form}`);
    }
  });
});

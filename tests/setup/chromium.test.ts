import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAYWRIGHT_DISABLED_FEATURES, chromiumLaunchOptions } from './chromium';

describe('the journeys’ Chromium', () => {
  it('keeps Playwright’s own disabled features: the installed Playwright lists the same ones', () => {
    // playwright-core bundles its server code; its list is the array assigned to `disabledFeatures`.
    const bundle = path.join(path.dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib', 'coreBundle.js');
    const source = fs.readFileSync(bundle, 'utf8');
    const list = /disabledFeatures = \[([\s\S]*?)\]\.filter/.exec(source)?.[1];
    expect(list, 'Playwright’s disabledFeatures list in playwright-core/lib/coreBundle.js').toBeDefined();
    const theirs = [...list!.replace(/\/\/.*$/gm, '').matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    expect(theirs.length).toBeGreaterThan(5);
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...theirs].sort());
  });

  it('passes one --disable-features (Chromium keeps only the last)', () => {
    const flags = chromiumLaunchOptions.args.filter((arg) => arg.startsWith('--disable-features='));
    expect(flags).toHaveLength(1);
    expect(flags[0]).toContain('WebUIOmniboxPopup');
    for (const feature of PLAYWRIGHT_DISABLED_FEATURES) expect(flags[0].split('=')[1].split(',')).toContain(feature);
  });
});

// usage: node shot.mjs URL WIDTH HEIGHT OUT [scrollY] [waitMs] [cookie]
import { chromium } from '@playwright/test';
const [url, w, h, out, scrollY = '0', waitMs = '1500', cookie] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: +w, height: +h }, deviceScaleFactor: 1 });
if (cookie) { const [name, ...v] = cookie.split('='); await context.addCookies([{ name, value: v.join('='), url }]); }
const page = await context.newPage();
await page.goto(url);
await page.waitForTimeout(+waitMs);
if (+scrollY) { await page.mouse.wheel(0, +scrollY); await page.waitForTimeout(800); }
await page.screenshot({ path: out });
await browser.close();

import { describe, expect, it } from 'vitest';
import { HYDRATION_SCRIPT_ID, deferHydration } from './deferred-hydration.server';

const moduleBody = 'import * as route0 from "/assets/root-x.js";\nimport("/assets/entry.client-y.js");';
const page = [
  '<!DOCTYPE html><html><head>',
  '<link rel="modulepreload" href="/assets/entry.client-y.js" nonce="n0nce"/>',
  '<link rel="preload" href="/assets/inter.woff2" as="font" type="font/woff2" crossorigin="anonymous"/>',
  '<link rel="modulepreload" href="/assets/root-x.js" nonce="n0nce"/>',
  '</head><body><main id="main">Kopi</main>',
  '<script nonce="n0nce">window.__reactRouterContext = {};</script>',
  `<script nonce="n0nce" type="module" async="">${moduleBody}</script>`,
  '<script nonce="n0nce">window.__reactRouterContext.streamController.close();</script>',
  '</body></html>',
].join('');

describe('the browser code waits for the page', () => {
  const html = deferHydration(page);

  it('drops the module preloads and keeps every other preload', () => {
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="preload" href="/assets/inter.woff2" as="font"');
  });

  it('keeps the module script as inert text, in place, with a nonce-carrying starter right after it', () => {
    expect(html).not.toMatch(/type="module"/);
    const saved = `<script type="text/plain" id="${HYDRATION_SCRIPT_ID}">${moduleBody}</script><script nonce="n0nce">`;
    expect(html).toContain(saved);
    expect(html.indexOf(saved)).toBeGreaterThan(html.indexOf('window.__reactRouterContext = {}'));
    expect(html.indexOf(saved)).toBeLessThan(html.indexOf('streamController.close()'));
  });

  it('starts the saved module once the page has loaded, or at the deadline, once only', () => {
    const starter = /<script nonce="n0nce">(\(function\(\)[\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(starter).toContain("addEventListener('load',start)");
    expect(starter).toContain('setTimeout(start,3000)');
    expect(starter).toContain("s.type='module'");
    expect(starter).toContain('s.nonce=nonce');
    expect(starter).toContain('if(started)return');
  });

  it('leaves a page without React Router’s module script as it is', () => {
    const plain = '<!DOCTYPE html><html><body><p>Down for maintenance</p></body></html>';
    expect(deferHydration(plain)).toBe(plain);
  });
});

import vm from 'node:vm';
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

  it('starts the saved module with its nonce, once only', () => {
    const page = runStarter(starterOf(html), { readyState: 'loading' });
    page.load();
    page.paint();
    page.deadline();
    expect(page.started).toEqual([{ type: 'module', nonce: 'n0nce', textContent: moduleBody }]);
  });

  it('waits for both the load event and the first contentful paint, in either order', () => {
    const loadFirst = runStarter(starterOf(html), { readyState: 'loading' });
    loadFirst.load();
    expect(loadFirst.started).toHaveLength(0);
    loadFirst.paint();
    expect(loadFirst.started).toHaveLength(1);

    const paintFirst = runStarter(starterOf(html), { readyState: 'interactive' });
    paintFirst.paint();
    expect(paintFirst.started).toHaveLength(0);
    paintFirst.load();
    expect(paintFirst.started).toHaveLength(1);
  });

  it('starts on a page that has already loaded as soon as its paint is reported', () => {
    const page = runStarter(starterOf(html), { readyState: 'complete' });
    expect(page.started).toHaveLength(0);
    page.paint();
    expect(page.started).toHaveLength(1);
  });

  it('starts at the deadline should the page never finish loading', () => {
    const page = runStarter(starterOf(html), { readyState: 'loading' });
    page.paint();
    expect(page.deadlineMs).toBe(3000);
    page.deadline();
    expect(page.started).toHaveLength(1);
  });

  it('starts at load on a page loaded out of sight, which reports no paint until it is shown', () => {
    const page = runStarter(starterOf(html), { readyState: 'loading', visibilityState: 'hidden' });
    page.load();
    expect(page.started).toHaveLength(1);
  });

  it('starts at load in a browser that reports no paint entries', () => {
    const page = runStarter(starterOf(html), { readyState: 'loading', paintEntries: false });
    page.load();
    expect(page.started).toHaveLength(1);
  });

  it('leaves a page without React Router’s module script as it is', () => {
    const plain = '<!DOCTYPE html><html><body><p>Down for maintenance</p></body></html>';
    expect(deferHydration(plain)).toBe(plain);
  });
});

function starterOf(html: string): string {
  const starter = /<script nonce="n0nce">(\(function\(\)[\s\S]*?)<\/script>/.exec(html)?.[1];
  if (!starter) throw new Error('no starter script in the page');
  return starter;
}

/** Runs the starter against a stand-in for the few browser APIs it uses, and lets a test move time on. */
function runStarter(
  starter: string,
  { readyState, paintEntries = true, visibilityState = 'visible' }: { readyState: string; paintEntries?: boolean; visibilityState?: string },
) {
  const started: Array<Record<string, string>> = [];
  let onLoad = () => {};
  let onDeadline = () => {};
  let deadlineMs = 0;
  let onPaint: (list: { getEntriesByName(name: string): unknown[] }, observer: { disconnect(): void }) => void = () => {};
  class PerformanceObserver {
    static supportedEntryTypes = paintEntries ? ['navigation', 'paint', 'resource'] : ['navigation', 'resource'];
    constructor(callback: typeof onPaint) {
      onPaint = callback;
    }
    observe() {}
  }
  const document = {
    readyState,
    visibilityState,
    currentScript: { nonce: 'n0nce' },
    getElementById: (id: string) => (id === HYDRATION_SCRIPT_ID ? { textContent: moduleBody } : null),
    createElement: () => ({}),
    body: { appendChild: (script: Record<string, string>) => started.push({ ...script }) },
  };
  vm.runInNewContext(starter, {
    document,
    PerformanceObserver,
    addEventListener: (name: string, listener: () => void) => {
      if (name === 'load') onLoad = listener;
    },
    setTimeout: (callback: () => void, ms: number) => {
      onDeadline = callback;
      deadlineMs = ms;
    },
  });
  return {
    started,
    deadlineMs,
    load: () => onLoad(),
    paint: () => onPaint({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{ name }] : []) }, { disconnect() {} }),
    deadline: () => onDeadline(),
  };
}

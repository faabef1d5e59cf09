/**
 * How the journeys start Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH): headless, offline, without a GPU.
 * Shared by playwright.config.ts and playwright.nodes.config.ts.
 */

/**
 * Playwright's own --disable-features list (playwright-core's `chromiumSwitches`), repeated because Chromium takes
 * only the last --disable-features it is given. tests/setup/chromium.test.ts fails when an upgrade of Playwright
 * changes its list, so it is copied again.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 loads its address bar's WebUI popups (chrome://omnibox-popup.top-chrome, a renderer of its own
 * with ~40 scripts) for every window, so for every journey's browser context, headless or not: about a seventh of
 * the journeys' browser time in a trace of the checkout and consent journeys. No journey opens the address bar.
 */
const KOPI_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    '--disable-gpu',
    // Software compositing in the renderer and no animated scrolling: the same pages for about a tenth less CPU
    // on a machine without a GPU (measured on the back-office journeys).
    '--disable-gpu-compositing',
    '--disable-smooth-scrolling',
    `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...KOPI_DISABLED_FEATURES].join(',')}`,
    ...(process.env.CHROMIUM_EXTRA_ARGS ?? '').split(' ').filter(Boolean),
  ],
};

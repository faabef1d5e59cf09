#!/usr/bin/env node
// The browser tests run in Debian's Chromium. Finds it, or installs the `chromium` package when running as
// root; otherwise explains what to install. Playwright's own browser download is never used.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
const found = () => candidates.find((path) => fs.existsSync(path));

if (found()) process.exit(0);

if (process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
  console.log('Chromium is missing: installing Debian\'s "chromium" package for the browser tests…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  if (found()) process.exit(0);
}

console.error(
  'The browser tests need Chromium. Install Debian\'s "chromium" package (sudo apt-get install chromium), ' +
    'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
);
process.exit(1);

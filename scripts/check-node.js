#!/usr/bin/env node
// Kopi runs on the maintained Node.js lines, 24 and 26 (docs/decisions/0005). `npm install` brings Node 26
// along where the npm registry has a build for the machine, and npm scripts use it; this check turns any
// other case (an old system Node, a platform without that build) into one clear sentence.
import { fileURLToPath } from 'node:url';

export function requireSupportedNode(what = 'Kopi') {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 24 || (major === 24 && minor >= 11)) return;
  console.error(
    `${what} needs Node.js 24 (24.11 or newer) or 26, and this is ${process.version}.\n` +
      'Run it through npm (`npm start`, `npm test`, `npm run kopi -- …`): on Linux (x64, arm64) and Intel Macs\n' +
      '`npm install` brings Node.js 26 along and npm scripts use it. Elsewhere, install Node.js 24 or 26.',
  );
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) requireSupportedNode(process.argv[2]);

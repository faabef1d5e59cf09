#!/usr/bin/env node
// `npm run build` builds the production bundle (build/). With --if-stale (npm start, the crash test, the two-node
// journey, the bench) it builds only when build/ is missing or older than what it is built from, and says which in
// one line, so a restart of an unchanged shop starts at once and one build serves every test phase.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Written after a build succeeds: its time is the build's. */
const STAMP = path.join(root, 'build', '.built');
/** What the build is made from: the app, the server, the shipped content and the build's own configuration. */
const SOURCES = ['app', 'server', 'content', 'public', 'server.js', 'vite.config.ts', 'react-router.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
/** Files beside the sources that the build never includes: tests and their helpers. */
const notBuilt = (file) => /\.test\.tsx?$|[\\/]server[\\/](test-shop|fuzz)\.ts$|[\\/]app[\\/]db[\\/](test-databases|migrations[\\/]empty-databases)\.ts$/.test(file);

/** The newest source file and its modification time, or null when there is none. */
export function newestSource(dir = root) {
  let newest = null;
  const visit = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
    } else if (!notBuilt(file) && (!newest || stat.mtimeMs > newest.mtimeMs)) {
      newest = { file: path.relative(dir, file), mtimeMs: stat.mtimeMs };
    }
  };
  for (const source of SOURCES) visit(path.join(dir, source));
  return newest;
}

/** Why the build must be made again, or null when build/ is up to date. */
export function staleness(dir = root) {
  const stamp = fs.statSync(path.join(dir, 'build', '.built'), { throwIfNoEntry: false });
  if (!stamp || !fs.existsSync(path.join(dir, 'build', 'server', 'index.js'))) return 'there is no build yet';
  const newest = newestSource(dir);
  if (newest && newest.mtimeMs > stamp.mtimeMs) return `${newest.file} changed since the last build`;
  return null;
}

function build() {
  const started = Date.now();
  fs.rmSync(STAMP, { force: true });
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules', '@react-router', 'dev', 'bin.cjs'), 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  return Date.now() - started;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-stale')) {
    const why = staleness();
    if (why) {
      console.log(`Building the shop (${why})…`);
      const ms = build();
      console.log(`Built in ${(ms / 1000).toFixed(1)} s.`);
    } else {
      console.log('The build is up to date (nothing changed since it was made).');
    }
  } else {
    build();
  }
}

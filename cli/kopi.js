#!/usr/bin/env node
// The `kopi` command-line tool. Loads the TypeScript commands through tsx so it runs without a build.
import { register } from 'tsx/esm/api';
import { requireSupportedNode } from '../scripts/check-node.js';

requireSupportedNode('The kopi command');

register();
const { run } = await import('./commands.ts');
process.exitCode = await run(process.argv.slice(2));

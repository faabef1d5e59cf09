#!/usr/bin/env node
// `npm run demo:ksef`: the demo shop as `npm start` runs it, with a demo seller (Kopi Palarnia sp. z o.o., NIP
// 5260250274) whose invoices the shop sends to KSeF's stand-in (tests/doubles/ksef.js, in a process of its own on
// KSEF_STAND_IN_PORT, 3940 by default): ask for an invoice at checkout or issue one from an order's page, and watch
// it get its KSeF number, QR code and UPO on /admin/invoices, with no KSeF account. Anything set in the environment
// or .env wins over these demo values; DATA_DIR defaults to ./data-ksef-demo so the demo's invoices stay apart.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

if (fs.existsSync('.env')) process.loadEnvFile('.env');
const port = Number(process.env.KSEF_STAND_IN_PORT ?? 3940);
const standIn = spawn(process.execPath, ['tests/doubles/ksef.js', String(port)], { stdio: 'inherit' });
const env = {
  SHOP_LEGAL_NAME: 'Kopi Palarnia sp. z o.o.',
  SHOP_ADDRESS: 'ul. Mokotowska 12, 00-640 Warszawa',
  SHOP_TAX_ID: '5260250274',
  DATA_DIR: './data-ksef-demo',
  KSEF_SENDER: 'kopi',
  KSEF_ENV: `http://127.0.0.1:${port}/v2`,
  // A token of KSeF's shape for the demo seller: the stand-in accepts any such token for the NIP it names.
  KSEF_TOKEN: `20261204-EC-0123456789-ABCDEF0123-4F|nip-5260250274|${'0'.repeat(64)}`,
  ...process.env,
};
const shop = spawn(process.execPath, ['server.js'], { stdio: 'inherit', env });
const stop = (signal) => {
  shop.kill(signal);
  standIn.kill(signal);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
shop.on('exit', (code) => {
  standIn.kill('SIGTERM');
  process.exit(code ?? 0);
});

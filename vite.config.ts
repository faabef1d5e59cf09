import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { type Plugin, defineConfig } from 'vite';

/**
 * The browser's code in a few larger files instead of ~30 small ones: over HTTP/1.1 a phone fetches six at
 * a time, each wave a round trip, and the first paint waited for them (docs/decisions/0013). React and the
 * router are one file; the storefront's shared components another; the back office keeps its own.
 */
const clientChunks = {
  groups: [
    { name: 'framework', test: /node_modules[\\/](react|react-dom|react-router|scheduler|turbo-stream|cookie|set-cookie-parser)[\\/]/, priority: 30 },
    { name: 'storefront', test: storefrontModule, minShareCount: 2, priority: 20 },
  ],
};

/**
 * The storefront's shared components, helpers and icons; not the back office's, not the checkout's, the orders'
 * and the invoices' (pages later in a visit, which share a file of their own: a first visit to the shop does not
 * load them — 2.7 kB gzip less on every first page, and 1.3 kB more since invoices came), and not the form schemas
 * (zod builds every schema when its file runs, so they load with the pages that have those forms).
 */
function storefrontModule(id: string): boolean {
  if (/[\\/]node_modules[\\/]lucide-react[\\/]/.test(id)) return true;
  if (!/[\\/]app[\\/](components|lib|modules)[\\/]/.test(id)) return false;
  return !/[\\/]app[\\/](components[\\/](admin|checkout|orders|invoices)|modules[\\/](backoffice|invoices|orders|fulfilment))[\\/]|[\\/]app[\\/]lib[\\/]shop-days\.ts$|schema\.ts$/.test(id);
}

/**
 * The server build's entries keep their names (index.js, smtp-thread.js): React Router names every server entry
 * `index.js`, which would make the second `index2.js`.
 */
const namedServerEntries: Plugin = {
  name: 'kopi:named-server-entries',
  enforce: 'post',
  configEnvironment(name, options) {
    const output = options.build?.rollupOptions?.output;
    if (name === 'ssr' && output && !Array.isArray(output)) output.entryFileNames = '[name].js';
  },
};

export default defineConfig({
  environments: {
    // The server build's entry is Kopi's Express app, which imports the React Router build itself; the SMTP
    // thread (app/modules/mail/smtp-thread.ts) is a file of its own beside it.
    ssr: { build: { rollupOptions: { input: { index: './server/app.ts', 'smtp-thread': './app/modules/mail/smtp-thread.ts' } } } },
    client: { build: { rolldownOptions: { output: { codeSplitting: clientChunks } } } },
  },
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  ssr: { external: ['pg', 'sharp', 'pino', 'pino-http', 'nodemailer', 'pdfkit'] },
  plugins: [tailwindcss(), reactRouter(), namedServerEntries],
});

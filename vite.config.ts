import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The browser's code in a few larger files instead of ~30 small ones: over HTTP/1.1 a phone fetches six at
 * a time, each wave a round trip, and the first paint waited for them (docs/decisions/0013). React and the
 * router are one file; the storefront's shared components another; the back office keeps its own.
 */
const clientChunks = {
  groups: [
    { name: 'framework', test: /node_modules[\\/](react|react-dom|react-router|scheduler|turbo-stream|cookie|set-cookie-parser)[\\/]/, priority: 30 },
    { name: 'storefront', test: /([\\/]app[\\/](components[\\/](?!admin)|lib|modules)|node_modules[\\/]lucide-react)[\\/]/, minShareCount: 2, priority: 20 },
  ],
};

export default defineConfig({
  environments: {
    // The server build's entry is Kopi's Express app, which imports the React Router build itself.
    ssr: { build: { rollupOptions: { input: './server/app.ts' } } },
    client: { build: { rolldownOptions: { output: { codeSplitting: clientChunks } } } },
  },
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  ssr: { external: ['pg', 'sharp', 'pino', 'pino-http', 'nodemailer'] },
  plugins: [tailwindcss(), reactRouter()],
});

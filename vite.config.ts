import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  // The server build's entry is Kopi's Express app, which imports the React Router build itself.
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  ssr: { external: ['pg', 'sharp', 'pino', 'pino-http', 'nodemailer'] },
  plugins: [tailwindcss(), reactRouter()],
});

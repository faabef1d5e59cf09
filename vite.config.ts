import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild ? { rollupOptions: { input: './server/app.ts' } } : undefined,
  resolve: { alias: { '~': fileURLToPath(new URL('./app', import.meta.url)) } },
  ssr: { external: ['better-sqlite3', 'pg', 'sharp', 'pino', 'pino-http', 'nodemailer'] },
  plugins: [tailwindcss(), reactRouter()],
}));

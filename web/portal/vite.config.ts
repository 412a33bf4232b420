import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the API at `/` (services/api/src/web); `npm run dev -w web/portal` proxies /api to it.
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, assetsInlineLimit: 0 },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the API at `/admin/` (services/api/src/web/adminRoutes.ts); `npm run dev -w web/admin` proxies /api to it.
export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    assetsInlineLimit: 0,
    // Libraries change less often than the app: a chunk of their own stays cached across releases. Those only a
    // lazily loaded page needs (the analytics page's charts) are a chunk apart, loaded with that page. zod-setup goes
    // with the libraries: chunks shared by lazy pages build contracts' schemas, and they import the vendor chunk first.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules|zodSetup/, tags: ['$initial'], priority: 2 },
            { name: 'charts', test: /node_modules/, priority: 1 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

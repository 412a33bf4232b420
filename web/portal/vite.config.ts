import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the API at `/` (services/api/src/web); `npm run dev -w web/portal` proxies /api to it.
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    assetsInlineLimit: 0,
    rollupOptions: {
      // The shared contracts only declare schemas and constants: a module the portal never reads is left out
      // (the back-office and event schemas), which keeps the initial JavaScript small.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]contracts[\\/]src[\\/]/.test(id) },
    },
    // zod and its setup share one chunk, which every chunk building schemas imports: zod is configured jitless before
    // any schema exists. Apart, a shared chunk of schemas ran first and zod's eval probe broke the CSP.
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|zodSetup/, priority: 2 }] } },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

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
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

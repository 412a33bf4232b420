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
    // The API reads it to preload a claim page's chunks from that page's HTML (services/api/src/web/claimPagePreload.ts).
    manifest: true,
    // zod and its setup share one chunk, which every chunk building schemas imports: zod is configured jitless before
    // any schema exists. Apart, a shared chunk of schemas ran first and zod's eval probe broke the CSP.
    rolldownOptions: {
      // The shared contracts and the domain only declare schemas, constants and pure functions: a module the portal
      // never reads is left out (the back-office and event schemas), which keeps the initial JavaScript small. (Under
      // `rollupOptions` beside `rolldownOptions` this was ignored.)
      treeshake: {
        // The shared UI's modules too, but for zod's setup (its one side effect) and stylesheets.
        moduleSideEffects: (id: string) =>
          !/[\\/](contracts|services[\\/]domain)[\\/]src[\\/]/.test(id) &&
          !/[\\/]web[\\/]ui[\\/]src[\\/](?!zodSetup\.)\w+\.tsx?$/.test(id),
        // A module kept for one constant (a label table beside its enum) kept every schema it declares, built at start-up;
        // `z.…` calls only declare schemas, so an unused one is dropped (zod's setup calls `config` by name: it stays).
        manualPureFunctions: ['z', 'Object.keys'],
      },
      output: { codeSplitting: { groups: [{ name: 'zod', test: /node_modules[\\/]zod[\\/]|zodSetup/, priority: 2 }] } },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { router } from './router.js';
import './styles.css';

const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, refetchOnWindowFocus: false } } });

// Spec §8: a failed chunk load reloads the page once, at most every 10 seconds.
window.addEventListener('vite:preloadError', () => {
  const key = 'claims-portal:reloaded-at';
  const last = Number(window.sessionStorage.getItem(key) ?? 0);
  if (Date.now() - last > 10_000) {
    window.sessionStorage.setItem(key, String(Date.now()));
    window.location.reload();
  }
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);

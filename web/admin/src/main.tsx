import '@claims/ui/zod-setup';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { DocumentTitle } from '@claims/ui/components';
import { installTheme } from '@claims/ui/theme';
import { queryClient, router } from './app/router.js';
import '@claims/ui/tokens.css';
import '@claims/ui/base.css';
import './styles.css';

installTheme();

const deskTitle = (title: string) => `${title} · Claim desk`;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <DocumentTitle value={deskTitle}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </DocumentTitle>
  </StrictMode>,
);

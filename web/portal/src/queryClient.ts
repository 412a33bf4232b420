import { QueryClient } from '@tanstack/react-query';

/** The portal's one query cache: the app renders from it, and routes fill it ahead of their pages. */
export const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, refetchOnWindowFocus: false } } });

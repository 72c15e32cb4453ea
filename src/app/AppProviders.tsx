import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from '../ui/Toast';
import { UnexpectedErrors } from './UnexpectedErrors';

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <UnexpectedErrors>{children}</UnexpectedErrors>
      </ToastProvider>
    </QueryClientProvider>
  );
}

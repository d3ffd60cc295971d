import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '@/features/auth';
import { ContactSalesProvider } from './contactSales';

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <ContactSalesProvider>{children}</ContactSalesProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}

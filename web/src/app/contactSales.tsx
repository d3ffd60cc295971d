// The Contact Sales dialog belongs to the shell: any page can open it through useContactSales().
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ContactSalesDialog } from '@/features/contact';

interface ContactSalesContextValue {
  openContactSales: () => void;
}

const ContactSalesContext = createContext<ContactSalesContextValue>({ openContactSales: () => undefined });

export function ContactSalesProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const openContactSales = useCallback(() => setOpen(true), []);
  const close = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ openContactSales }), [openContactSales]);
  return (
    <ContactSalesContext.Provider value={value}>
      {children}
      <ContactSalesDialog open={open} onClose={close} />
    </ContactSalesContext.Provider>
  );
}

export function useContactSales(): ContactSalesContextValue {
  return useContext(ContactSalesContext);
}

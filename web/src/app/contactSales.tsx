// The Contact Sales dialog belongs to the shell: any page can open it through useContactSales().
// Its code (with the schema library) loads when it is first opened, not with the landing page.
import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

const ContactSalesDialog = lazy(() => import('@/features/contact').then((m) => ({ default: m.ContactSalesDialog })));

interface ContactSalesContextValue {
  openContactSales: () => void;
}

const ContactSalesContext = createContext<ContactSalesContextValue>({ openContactSales: () => undefined });

export function ContactSalesProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so that closing keeps the dialog's own closing behaviour.
  const [wanted, setWanted] = useState(false);
  const openContactSales = useCallback(() => {
    setWanted(true);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  const value = useMemo(() => ({ openContactSales }), [openContactSales]);
  return (
    <ContactSalesContext.Provider value={value}>
      {children}
      {wanted ? (
        <Suspense fallback={null}>
          <ContactSalesDialog open={open} onClose={close} />
        </Suspense>
      ) : null}
    </ContactSalesContext.Provider>
  );
}

export function useContactSales(): ContactSalesContextValue {
  return useContext(ContactSalesContext);
}

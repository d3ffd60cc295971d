// Leaving the app for another site (the payment provider's checkout or billing portal). One
// object, so that tests replace the navigation with vi.spyOn(browserNavigation, 'assign').
export const browserNavigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

// Signs a signed-in visitor out after 15 minutes without mouse, keyboard, scroll or touch
// activity (spec sections 4 and 9). One timeout at a time: activity only records its time, and
// when the timeout fires it either signs out or waits out the rest of the 15 minutes. Timers and
// Date only, so fake clocks (Vitest's, Playwright's page.clock) can fast-forward it.
import { useEffect, useRef } from 'react';

export const INACTIVITY_TIMEOUT_MS = 15 * 60 * 1000;

export const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart'] as const;

export function useInactivitySignOut(active: boolean, onInactive: () => void): void {
  const onInactiveRef = useRef(onInactive);
  useEffect(() => {
    onInactiveRef.current = onInactive;
  }, [onInactive]);

  useEffect(() => {
    if (!active) return;
    let lastActivity = Date.now();
    let timer: number | undefined;

    const check = () => {
      const idle = Date.now() - lastActivity;
      if (idle >= INACTIVITY_TIMEOUT_MS) {
        timer = undefined;
        onInactiveRef.current();
      } else {
        timer = window.setTimeout(check, INACTIVITY_TIMEOUT_MS - idle);
      }
    };
    const onActivity = () => {
      lastActivity = Date.now();
    };

    timer = window.setTimeout(check, INACTIVITY_TIMEOUT_MS);
    // Capture, so that scrolling inside any element counts as well as scrolling the page.
    const options: AddEventListenerOptions = { capture: true, passive: true };
    for (const type of ACTIVITY_EVENTS) window.addEventListener(type, onActivity, options);
    return () => {
      window.clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) window.removeEventListener(type, onActivity, options);
    };
  }, [active]);
}

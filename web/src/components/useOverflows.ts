// Whether an element is wider inside than it shows (a table in a horizontal scroll box), kept up
// to date as either resizes. A box that scrolls must be reachable by keyboard (WCAG 2.1.1; axe's
// scrollable-region-focusable): its owner makes it focusable while this is true.
import { useEffect, useState, type RefObject } from 'react';

export function useOverflows(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () => setOverflows(element.scrollWidth > element.clientWidth);
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    check();
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

import { useEffect, useState, type RefObject } from 'react';

/**
 * How far below the screen the observed area reaches: further than any page is long, so that every element
 * not yet scrolled past is inside it.
 */
const FAR_BELOW_PX = 1_000_000;

/**
 * Whether the element has scrolled up and out of view: entirely above the top of the viewport, or
 * under a sticky header `topInset` pixels tall. Without IntersectionObserver (jsdom) it stays false.
 */
export const useScrolledPast = (ref: RefObject<Element | null>, topInset = 0): boolean => {
  const [scrolledPast, setScrolledPast] = useState(false);

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof window === 'undefined' || !('IntersectionObserver' in window)) return undefined;
    // The observed area runs from the top line down to far below the screen, so the observer reports exactly
    // when the element's bottom crosses that line. Watching the screen alone missed an element that started
    // below the first screen and was passed in one jump (a fast scroll, a key, a restored position: the
    // tablet layout's hero button), since it never entered the screen and so never changed state.
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (!entry) return;
        const top = entry.rootBounds?.top ?? topInset;
        setScrolledPast(!entry.isIntersecting && entry.boundingClientRect.bottom <= top);
      },
      { rootMargin: `-${topInset}px 0px ${FAR_BELOW_PX}px 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, topInset]);

  return scrolledPast;
};

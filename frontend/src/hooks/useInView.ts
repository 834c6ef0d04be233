import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element is in the viewport. Without IntersectionObserver (old browsers, jsdom)
 * the answer is `fallback`.
 */
export const useInView = (
  ref: RefObject<Element | null>,
  { once = false, fallback = true, rootMargin = '0px', threshold = 0 }: {
    once?: boolean;
    fallback?: boolean;
    rootMargin?: string;
    threshold?: number;
  } = {},
): boolean => {
  const supported = typeof window !== 'undefined' && 'IntersectionObserver' in window;
  const [inView, setInView] = useState(supported ? false : fallback);

  useEffect(() => {
    const element = ref.current;
    if (!element || !supported) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.some((entry) => entry.isIntersecting);
        setInView(visible);
        if (visible && once) observer.disconnect();
      },
      { rootMargin, threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, once, rootMargin, threshold, supported]);

  return inView;
};

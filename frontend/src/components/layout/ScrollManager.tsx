import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * Scrolls to the top on navigation, or to the element the hash names.
 * `hashDelayMs` lets a page render its content first (the project page waits 200 ms).
 */
export function ScrollManager({ hashDelayMs = 0 }: { hashDelayMs?: number }) {
  const { pathname, hash, key } = useLocation();

  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0);
      return undefined;
    }
    const id = decodeURIComponent(hash.slice(1));
    const timer = window.setTimeout(() => {
      document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    }, hashDelayMs);
    return () => window.clearTimeout(timer);
  }, [pathname, hash, key, hashDelayMs]);

  return null;
}

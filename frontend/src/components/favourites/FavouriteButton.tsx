import { lazy, Suspense, useEffect, useState } from 'react';
import type { FavouriteButtonProps } from './FavouriteLive';
import './favourite.css';

const FavouriteLive = lazy(() => import('./FavouriteLive'));

/**
 * The お気に入り toggle of a project (cards, the project page, my page), aria-pressed, named お気に入りに追加 /
 * お気に入りから外す. The first screen (server-rendered, then hydrated) holds its place with an empty box of the
 * same height; the button itself loads once the page runs, keeping the landing pages' up-front script within
 * its budget (docs/decisions.md, "Initial JavaScript within 130 KB").
 */
export function FavouriteButton(props: FavouriteButtonProps) {
  // False for the server's render and the hydration that takes it over, true from the first effect on.
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  const place = <div className="favourite" />;
  return running ? (
    <Suspense fallback={place}>
      <FavouriteLive {...props} />
    </Suspense>
  ) : (
    place
  );
}

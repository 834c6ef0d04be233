import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '@/app/session/useSession';
import { paths } from '@/config/paths';
import { getErrorMessage } from '@/lib/apiError';
import { saveLoginRef } from '@/lib/storage';
import { useGetFavouritesQuery, useSetFavouriteMutation, type Favourite } from './favouritesApi';
import './favourite.css';

export const KEEP_LABEL = 'お気に入りに追加';
export const UNKEEP_LABEL = 'お気に入りから外す';

/**
 * The お気に入り toggle of a project (cards and the project page). Pressed when the member keeps it; a tap
 * changes it at once and puts it back with the reason when the server refuses. A guest is taken to the login
 * page and comes back here afterwards. `describedBy` names the project for screen readers on a list of cards.
 */
export function FavouriteButton({
  project,
  describedBy,
  variant = 'card',
}: {
  project: Favourite['project'];
  describedBy?: string;
  variant?: 'card' | 'page';
}) {
  const { isLoggedIn, status } = useSession();
  const { data: favourites } = useGetFavouritesQuery(undefined, { skip: !isLoggedIn });
  const [setFavourite] = useSetFavouriteMutation();
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const kept = favourites?.some((f) => f.project.id === project.id) ?? false;

  const toggle = async () => {
    setError(null);
    if (!isLoggedIn) {
      if (status !== 'guest') return; // The stored session is still being checked.
      saveLoginRef(`${pathname}${search}${hash}`);
      void navigate(paths.login.getHref());
      return;
    }
    try {
      await setFavourite({ project, kept: !kept }).unwrap();
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };

  return (
    <div className={`favourite favourite--${variant}`}>
      <button
        type="button"
        className={`favourite__button${kept ? ' favourite__button--kept' : ''}`}
        aria-pressed={kept}
        aria-describedby={describedBy}
        onClick={() => void toggle()}
      >
        <svg className="favourite__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M12 21s-7.5-4.6-9.6-9.3C.9 8.3 3 4.5 6.6 4.5c2.1 0 3.6 1.2 4.4 2.6.8-1.4 2.3-2.6 4.4-2.6 3.6 0 5.7 3.8 4.2 7.2C19.5 16.4 12 21 12 21z" />
        </svg>
        {kept ? UNKEEP_LABEL : KEEP_LABEL}
      </button>
      {error && (
        <p className="favourite__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

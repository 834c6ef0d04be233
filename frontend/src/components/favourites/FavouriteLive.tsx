import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '@/app/session/useSession';
import { paths } from '@/config/paths';
import { saveLoginRef } from '@/lib/storage';
import type { Schemas } from '@/lib/apiTypes';
import { FavouriteShell } from './FavouriteShell';
import FavouriteToggle from './FavouriteToggle';

export interface FavouriteButtonProps {
  project: Schemas['ProjectCardDto'];
  /** Names the project for screen readers on a list of cards. */
  describedBy?: string;
}

/**
 * The お気に入り button once loaded: a guest's tap leads to the login page, which comes back here afterwards; a
 * member gets the live toggle.
 */
export default function FavouriteLive({ project, describedBy }: FavouriteButtonProps) {
  const { isLoggedIn, status } = useSession();
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const toLogin = () => {
    saveLoginRef(`${pathname}${search}${hash}`);
    void navigate(paths.login.getHref());
  };
  // A stored session still being checked is neither a guest nor a member yet.
  const busy = status === 'unchecked' || status === 'checking';
  const shell = (
    <FavouriteShell kept={false} onToggle={toLogin} describedBy={describedBy} busy={busy} />
  );
  if (!isLoggedIn) return shell;
  return <FavouriteToggle project={project} describedBy={describedBy} />;
}

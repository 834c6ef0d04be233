import { useState } from 'react';
import { getErrorMessage } from '@/lib/apiError';
import { useGetFavouritesQuery, useSetFavouriteMutation, type Favourite } from './favouritesApi';
import { FavouriteShell } from './FavouriteShell';

/**
 * A member's お気に入り toggle: pressed when the member keeps the project; a tap changes it at once (the cached
 * list, see `favouritesApi`) and puts it back with the server's reason when refused. Loaded on demand, so the
 * pages guests land on carry only the shell.
 */
export default function FavouriteToggle({
  project,
  describedBy,
}: {
  project: Favourite['project'];
  describedBy?: string | undefined;
}) {
  const { data: favourites, isLoading } = useGetFavouritesQuery();
  const [setFavourite] = useSetFavouriteMutation();
  const [error, setError] = useState<string | null>(null);
  const kept = favourites?.some((f) => f.project.id === project.id) ?? false;

  const toggle = async () => {
    setError(null);
    try {
      await setFavourite({ project, kept: !kept }).unwrap();
    } catch (failure) {
      setError(getErrorMessage(failure));
    }
  };

  return (
    <FavouriteShell
      kept={kept}
      onToggle={() => void toggle()}
      describedBy={describedBy}
      error={error}
      busy={isLoading}
    />
  );
}

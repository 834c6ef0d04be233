import type { ImageUrl } from './api/accountApi';

/**
 * The current icon or logo: the server lists uploads newest first (`urls.icon` / `urls.logo` of
 * `authUser`) and keeps the earlier ones, so the first element is the one to show.
 */
export const currentImageUrl = (images: readonly ImageUrl[]): string | null => images[0]?.url ?? null;

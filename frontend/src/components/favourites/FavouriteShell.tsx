export const KEEP_LABEL = 'お気に入りに追加';
export const UNKEEP_LABEL = 'お気に入りから外す';

export interface FavouriteShellProps {
  kept: boolean;
  onToggle: () => void;
  describedBy?: string | undefined;
  error?: string | null;
  /** Not ready to answer a tap yet (the member's list or the toggle is loading): taps are ignored. */
  busy?: boolean;
}

/** The お気に入り button as drawn, whoever drives it (a guest's way to login or a member's toggle). */
export function FavouriteShell({ kept, onToggle, describedBy, error = null, busy = false }: FavouriteShellProps) {
  return (
    <div className="favourite">
      <button
        type="button"
        className={`favourite__button${kept ? ' favourite__button--kept' : ''}`}
        aria-pressed={kept}
        aria-describedby={describedBy}
        aria-busy={busy || undefined}
        onClick={busy ? undefined : onToggle}
      >
        <span className="favourite__icon" aria-hidden="true">
          {kept ? '♥' : '♡'}
        </span>
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

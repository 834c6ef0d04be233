import { SITE_NAME } from '@/config/site';

/** Our mark: Gunma's mountains under a rising sun, with the site name beside it. */
export function Logo({ variant = 'default' }: { variant?: 'default' | 'inverse' }) {
  return (
    <span className={`logo logo--${variant}`}>
      <svg className="logo__mark" viewBox="0 0 48 48" width="40" height="40" aria-hidden="true" focusable="false">
        <circle cx="33" cy="14" r="7" fill="var(--color-accent)" />
        <path d="M2 40 17 17l8 11 6-7 15 19z" fill="currentColor" />
        <path d="M17 17l-4 6 4-2 3 3z" fill="var(--color-surface)" opacity="0.8" />
      </svg>
      <span className="logo__text">{SITE_NAME}</span>
    </span>
  );
}

/** Our default user icon: a soft silhouette on the site's warm paper colour. */
export function DefaultIcon({ size = 48 }: { size?: number }) {
  return (
    <svg className="user-icon user-icon--default" viewBox="0 0 48 48" width={size} height={size} role="img" aria-label="アイコン未設定">
      <circle cx="24" cy="24" r="24" fill="var(--color-paper-dark)" />
      <circle cx="24" cy="19" r="8" fill="var(--color-muted)" opacity="0.55" />
      <path d="M9 40c2.5-7.5 8.4-11 15-11s12.5 3.5 15 11a22 22 0 0 1-30 0z" fill="var(--color-muted)" opacity="0.55" />
    </svg>
  );
}

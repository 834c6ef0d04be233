/** Shown while a lazily loaded page arrives. */
export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>読み込み中…</span>
    </div>
  );
}

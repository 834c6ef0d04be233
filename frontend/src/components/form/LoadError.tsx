import { Notice } from './Notice';

/** A failed load, with the reason and a retry button. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Notice tone="error">
      <p>{message}</p>
      <button type="button" className="button" onClick={onRetry}>
        再読み込みする
      </button>
    </Notice>
  );
}

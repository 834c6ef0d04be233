import { useEffect, useRef, useState } from 'react';

/** How long 'コピーしました' stays (the status region keeps it for screen readers to read). */
const STATUS_MS = 4_000;

export const COPY_MESSAGES = {
  copied: 'コピーしました',
  failed: 'コピーできませんでした。長押しして選択してください。',
} as const;

/**
 * A value a supporter copies by hand (an account number, a reference, an amount, a deadline): never broken
 * across lines, selected whole with one tap, and a copy button named after what it copies ('口座番号をコピー')
 * whose outcome is announced in a status region.
 */
export function CopyableValue({ label, value }: { label: string; value: string }) {
  const [status, setStatus] = useState<string>('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setStatus(COPY_MESSAGES.copied);
    } catch {
      setStatus(COPY_MESSAGES.failed);
    }
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setStatus(''), STATUS_MS);
  };

  return (
    <span className="copyable">
      <span className="copyable__value nowrap">{value}</span>
      {/* The visible word comes from the stylesheet so that the value's text stays the value alone. */}
      <button type="button" className="copyable__button" aria-label={`${label}をコピー`} onClick={() => void copy()} />
      <span className="copyable__status" role="status">
        {status}
      </span>
    </span>
  );
}

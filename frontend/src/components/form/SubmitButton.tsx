import type { ReactNode } from 'react';

interface SubmitButtonProps {
  busy: boolean;
  disabled?: boolean;
  children: ReactNode;
  /** Label while busy. */
  busyLabel?: string;
  type?: 'submit' | 'button';
  onClick?: () => void;
  variant?: 'primary' | 'default';
}

/** The primary action of a form, with a spinner while its request runs. */
export function SubmitButton({
  busy,
  disabled = false,
  children,
  busyLabel = '送信中…',
  type = 'submit',
  onClick,
  variant = 'primary',
}: SubmitButtonProps) {
  return (
    <button
      type={type}
      className={`button button--block ${variant === 'primary' ? 'button--primary' : ''}`.trim()}
      disabled={disabled || busy}
      onClick={onClick}
    >
      {busy ? (
        <>
          <span className="spinner spinner--small" aria-hidden="true" />
          {busyLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}

import type { ReactNode } from 'react';

type Tone = 'success' | 'info' | 'error';

/** A message box: errors are announced at once (`alert`), others politely (`status`). */
export function Notice({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/** A form's failure that belongs to no field; nothing while there is none. */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Notice tone="error">
      <p>{message}</p>
    </Notice>
  );
}

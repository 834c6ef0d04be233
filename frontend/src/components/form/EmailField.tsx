import type { ComponentProps } from 'react';
import { TextField } from './TextField';

type EmailFieldProps = Omit<ComponentProps<typeof TextField>, 'type' | 'label'> & { label?: string };

/** An e-mail address: the mobile e-mail keyboard, autofill, and the same example everywhere. */
export function EmailField({ label = 'メールアドレス', ...input }: EmailFieldProps) {
  return (
    <TextField
      label={label}
      type="email"
      name="email"
      autoComplete="email"
      inputMode="email"
      placeholder="example@example.jp"
      required
      {...input}
    />
  );
}

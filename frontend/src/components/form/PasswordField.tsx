import type { ComponentProps } from 'react';
import { TextField } from './TextField';

type PasswordFieldProps = Omit<ComponentProps<typeof TextField>, 'type' | 'label' | 'autoComplete'> & {
  label?: string;
  /** `current-password` to prove who one is, `new-password` to set one (password managers offer to generate). */
  autoComplete: 'current-password' | 'new-password';
};

/** A password, masked. */
export function PasswordField({ label = 'パスワード', ...input }: PasswordFieldProps) {
  return <TextField label={label} type="password" name="password" required {...input} />;
}

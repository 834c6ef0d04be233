import { useState, type FormEvent, type ReactNode } from 'react';
import { SubmitButton } from '@/components/form/SubmitButton';
import { TextField } from '@/components/form/TextField';
import { PASSWORD_MIN_LENGTH, validateConfirmation, validateNewPassword } from '@/lib/validation';

interface NewPasswordFormProps {
  passwordLabel: string;
  confirmationLabel: string;
  /** The confirmation message differs between setup and reset (spec 000 §5). */
  mismatchMessage: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (password: string) => void;
  children?: ReactNode;
}

/** A new password typed twice, with the spec's rules; submit stays disabled while invalid. */
export function NewPasswordForm({
  passwordLabel,
  confirmationLabel,
  mismatchMessage,
  submitLabel,
  busy,
  onSubmit,
  children,
}: NewPasswordFormProps) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState({ password: false, confirmation: false });

  const passwordError = validateNewPassword(password);
  const confirmationError = validateConfirmation(password, confirmation, mismatchMessage);
  const invalid = passwordError !== null || confirmationError !== null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ password: true, confirmation: true });
    if (invalid || busy) return;
    onSubmit(password);
  };

  return (
    <form className="form" noValidate onSubmit={submit} aria-busy={busy}>
      <TextField
        label={passwordLabel}
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        onBlur={() => setTouched((value) => ({ ...value, password: true }))}
        error={touched.password ? passwordError : null}
        hint={`${PASSWORD_MIN_LENGTH}文字以上で入力してください。`}
        required
      />
      <TextField
        label={confirmationLabel}
        type="password"
        name="confirmation"
        autoComplete="new-password"
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
        onBlur={() => setTouched((value) => ({ ...value, confirmation: true }))}
        error={touched.confirmation ? confirmationError : null}
        required
      />
      {children}
      <SubmitButton busy={busy} disabled={invalid}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

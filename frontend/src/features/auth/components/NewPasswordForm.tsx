import type { ReactNode } from 'react';
import { PasswordField } from '@/components/form/PasswordField';
import { SubmitButton } from '@/components/form/SubmitButton';
import { useForm } from '@/components/form/useForm';
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
  const form = useForm({
    initialValues: { password: '', confirmation: '' },
    validators: {
      password: validateNewPassword,
      confirmation: (confirmation, { password }) => validateConfirmation(password, confirmation, mismatchMessage),
    },
    // The page runs the request and its outcome: the form only hands the valid password over.
    onSubmit: ({ password }) => {
      if (!busy) onSubmit(password);
    },
  });

  return (
    <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={busy}>
      <PasswordField
        label={passwordLabel}
        autoComplete="new-password"
        hint={`${PASSWORD_MIN_LENGTH}文字以上で入力してください。`}
        {...form.field('password')}
      />
      <PasswordField label={confirmationLabel} autoComplete="new-password" {...form.field('confirmation')} />
      {children}
      <SubmitButton busy={busy} disabled={form.invalid}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}

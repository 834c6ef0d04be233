import { useId, type ReactNode } from 'react';

export interface FieldIds {
  id: string;
  describedBy: string | undefined;
  invalid: boolean;
}

interface AdminFieldProps {
  label: ReactNode;
  /** The server's message for this field, announced at once. */
  error?: string | null;
  hint?: ReactNode;
  /** Why the field cannot be changed (shown under a disabled control). */
  note?: string | null;
  optional?: boolean;
  /** The label points at the control (`htmlFor`); off for a control that names itself (the rich-text editor). */
  labelFor?: boolean;
  labelId?: string;
  children: (ids: FieldIds) => ReactNode;
}

/**
 * Label, control, hint, lock note and error of one field of the project screens. Like `FieldFrame`, with the
 * server's message as an alert next to the field it names.
 */
export function AdminField({ label, error, hint, note, optional, labelFor = true, labelId, children }: AdminFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const invalid = Boolean(error);
  const describedBy =
    [note ? noteId : null, hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ') || undefined;
  const labelText = (
    <>
      {label}
      {optional && <span className="field__optional">（任意）</span>}
    </>
  );
  return (
    <div className="field">
      {labelFor ? (
        <label className="field__label" htmlFor={id} id={labelId}>
          {labelText}
        </label>
      ) : (
        <span className="field__label" id={labelId}>
          {labelText}
        </span>
      )}
      {children({ id, describedBy, invalid })}
      {note && (
        <p id={noteId} className="field__hint admin-locked-note">
          {note}
        </p>
      )}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {invalid && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface ChoiceGroupProps<V extends string | number> {
  legend: string;
  name: string;
  options: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
  disabled?: boolean;
  note?: string | null;
  error?: string | null;
}

/** A radio group in a named fieldset; the arrow keys move between its choices. */
export function ChoiceGroup<V extends string | number>({
  legend,
  name,
  options,
  value,
  onChange,
  disabled = false,
  note,
  error,
}: ChoiceGroupProps<V>) {
  const id = useId();
  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const describedBy = [note ? noteId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="field admin-choices" disabled={disabled} aria-describedby={describedBy}>
      <legend className="field__label">{legend}</legend>
      {options.map((option) => (
        <label key={String(option.value)} className="admin-choice">
          <input
            type="radio"
            name={`${name}-${id}`}
            value={String(option.value)}
            checked={value === option.value}
            aria-invalid={error ? true : undefined}
            onChange={() => onChange(option.value)}
          />
          <span>{option.label}</span>
        </label>
      ))}
      {note && (
        <p id={noteId} className="field__hint admin-locked-note">
          {note}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A labelled checkbox (the label is the whole row, a 44 px target). */
export function CheckBox({
  label,
  checked,
  onChange,
  disabled,
  describedBy,
  invalid,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  describedBy?: string;
  invalid?: boolean;
}) {
  return (
    <label className="admin-choice">
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span>{label}</span>
    </label>
  );
}

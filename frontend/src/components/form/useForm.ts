import { useEffect, useRef, useState, type FormEvent } from 'react';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';

/** A rule of one field: the spec's message, or `null` when the value is acceptable. */
export type Validator<V, K extends keyof V> = (value: V[K], values: V) => string | null;
export type Validators<V> = { [K in keyof V]?: Validator<V, K> };

type StringKeys<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;
type Flags<V> = Record<keyof V, boolean>;
type Messages<V> = Partial<Record<keyof V, string>>;

export interface UseFormOptions<V> {
  initialValues: V;
  validators: Validators<V>;
  /**
   * Sends the form. A failure it throws is shown: under the field the server's error body names
   * (`field`, or each of `errors`), else as the form's alert (`formError`). A form that explains
   * some failures its own way catches them itself.
   */
  onSubmit: (values: V) => Promise<void> | void;
  /** The server's name of a field where it differs from the form's (`{ corporatename: 'name' }`). */
  serverFields?: Partial<Record<string, keyof V>>;
  /** The alert for a failure without a known field; by default the server's message or a network failure. */
  failureMessage?: (error: unknown) => string;
}

/** Props that tie a text field to the form (`<TextField {...form.field('email')} />`). */
export interface BoundField {
  name: string;
  value: string;
  error: string | null;
  onChange: (event: { target: { value: string } }) => void;
  onBlur: () => void;
}

export interface FormState<V> {
  values: V;
  setValue: <K extends keyof V>(name: K, value: V[K]) => void;
  /** The message each rule gives now, shown or not. */
  errors: Record<keyof V, string | null>;
  touched: Flags<V>;
  /** The message shown under a field: the server's refusal until the field changes, else the rule's once touched. */
  shownError: (name: keyof V) => string | null;
  field: (name: StringKeys<V>) => BoundField;
  /** A rule fails, or the server refused a field that has not changed since. */
  invalid: boolean;
  /** `onSubmit` is running. */
  submitting: boolean;
  /** What the submit button needs: disabled while invalid, spinner while submitting. */
  submitButton: { busy: boolean; disabled: boolean };
  formError: string | null;
  setFormError: (message: string | null) => void;
  handleSubmit: (event?: FormEvent<HTMLFormElement>) => void;
}

const mapKeys = <V, T>(values: V, to: (key: keyof V) => T): Record<keyof V, T> =>
  Object.fromEntries(Object.keys(values as object).map((key) => [key, to(key as keyof V)])) as Record<keyof V, T>;

/**
 * The state every form shares (spec 000 §5): values, the spec's messages shown once a field is left
 * or a submit is tried, submit refused while a rule fails or a request runs, and the server's
 * refusal shown where it belongs.
 */
export function useForm<V extends object>({
  initialValues,
  validators,
  onSubmit,
  serverFields = {},
  failureMessage = getErrorMessage,
}: UseFormOptions<V>): FormState<V> {
  const [values, setValues] = useState<V>(initialValues);
  const [touched, setTouched] = useState<Flags<V>>(() => mapKeys(initialValues, () => false));
  const [serverErrors, setServerErrors] = useState<Messages<V>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The state lags one render behind a double click; the ref does not.
  const submittingRef = useRef(false);
  const formRef = useRef<HTMLFormElement | null>(null);
  const focusRef = useRef<string | null>(null);

  const errors = mapKeys(values, (key) => {
    const rule = validators[key] as Validator<V, keyof V> | undefined;
    return rule ? rule(values[key], values) : null;
  });
  const invalid = Object.values(errors).some((error) => error !== null) || Object.keys(serverErrors).length > 0;

  // A refused field takes the focus once its message is on screen, so it is read out with it.
  useEffect(() => {
    const name = focusRef.current;
    if (name === null) return;
    focusRef.current = null;
    const control = formRef.current?.elements.namedItem(name);
    if (control instanceof HTMLElement) control.focus();
  }, [serverErrors]);

  const setValue = <K extends keyof V>(name: K, value: V[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setServerErrors((current) => {
      if (!(name in current)) return current;
      const rest = { ...current };
      delete rest[name];
      return rest;
    });
  };

  const fieldOf = (serverName: string): keyof V | null => {
    const name = serverFields[serverName] ?? serverName;
    return name in (initialValues as object) ? (name as keyof V) : null;
  };

  const showFailure = (error: unknown) => {
    const body = getApiErrorBody(error);
    const refused = [
      ...(body?.errors ?? []),
      ...(body?.field && body.message ? [{ field: body.field, message: body.message }] : []),
    ];
    const byField: Messages<V> = {};
    let unplaced = refused.length === 0;
    for (const { field, message } of refused) {
      const name = fieldOf(field);
      if (name === null) unplaced = true;
      else byField[name] ??= message;
    }
    const first = Object.keys(byField)[0];
    if (first !== undefined) {
      focusRef.current = first;
      setServerErrors(byField);
    }
    if (unplaced) setFormError(failureMessage(error));
  };

  const submit = async () => {
    submittingRef.current = true;
    setSubmitting(true);
    setFormError(null);
    setServerErrors({});
    try {
      await onSubmit(values);
    } catch (error) {
      showFailure(error);
    } finally {
      submittingRef.current = false;
      setSubmitting(false);
    }
  };

  const handleSubmit = (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    if (event) formRef.current = event.currentTarget;
    setTouched(mapKeys(values, () => true));
    if (invalid || submittingRef.current) return;
    void submit();
  };

  const shownError = (name: keyof V): string | null =>
    serverErrors[name] ?? (touched[name] ? errors[name] : null);

  const field = (name: StringKeys<V>): BoundField => ({
    name,
    value: values[name] as string,
    error: shownError(name),
    onChange: (event) => setValue(name, event.target.value as V[typeof name]),
    onBlur: () => setTouched((current) => (current[name] ? current : { ...current, [name]: true })),
  });

  return {
    values,
    setValue,
    errors,
    touched,
    shownError,
    field,
    invalid,
    submitting,
    submitButton: { busy: submitting, disabled: invalid },
    formError,
    setFormError,
    handleSubmit,
  };
}

import { useState } from 'react';
import { FieldFrame, TextField } from '@/components/form/TextField';
import {
  ADDRESS_LABELS,
  ADDRESS_MESSAGES,
  PREFECTURES,
  ZIP_PATTERN,
  digitsOnly,
  type AddressField,
  type AddressInput,
} from './addressRules';
import { useLazyZipAddressQuery } from './zipApi';

interface AddressFieldsProps {
  values: AddressInput;
  /** Applies a change; a function so the zip lookup can fill in fields of the latest values. */
  onChange: (update: (current: AddressInput) => AddressInput) => void;
  /** The message shown under a field, if any. */
  error: (field: AddressField) => string | null;
  onBlur: (field: AddressField) => void;
  /** Prefix of the inputs' names, when a page has other fields with the same names. */
  namePrefix?: string;
}

/**
 * The delivery address fields (spec 001 §3, §5): name, phone, postal code with the address looked up from it,
 * prefecture (Gunma by default), city, street and an optional building. Used by my page and the payment step.
 */
export function AddressFields({ values, onChange, error, onBlur, namePrefix = '' }: AddressFieldsProps) {
  const [zipNote, setZipNote] = useState<string | null>(null);
  const [lookupZip, { isFetching: isLookingUp }] = useLazyZipAddressQuery();
  const set = (field: AddressField, value: string) => onChange((current) => ({ ...current, [field]: value }));
  const name = (field: AddressField) => `${namePrefix}${field}`;

  const onZip = async (raw: string) => {
    const zip = digitsOnly(raw).slice(0, 7);
    set('zip', zip);
    setZipNote(null);
    if (!ZIP_PATTERN.test(zip)) return;
    // The answer may come after the person typed on: it fills only the fields left as they were when it was asked
    // for, so nothing typed meanwhile is overwritten (and no field empties under the cursor).
    const asked = { pref: values.pref, city: values.city, address: values.address };
    try {
      const found = await lookupZip(zip, true).unwrap();
      onChange((current) => {
        if (current.zip !== zip) return current;
        const untouched = (field: keyof typeof asked) => current[field] === asked[field];
        return {
          ...current,
          pref: untouched('pref') ? found.pref : current.pref,
          city: untouched('city') ? found.city : current.city,
          address: untouched('address') ? found.address : current.address,
        };
      });
      setZipNote(`${found.pref}${found.city}${found.address} を入力しました。番地以降を追記してください。`);
    } catch {
      setZipNote(ADDRESS_MESSAGES.zipNotFound);
    }
  };

  return (
    <>
      <TextField
        label={ADDRESS_LABELS.name}
        name={name('name')}
        autoComplete="name"
        value={values.name}
        onChange={(event) => set('name', event.target.value)}
        onBlur={() => onBlur('name')}
        error={error('name')}
        required
      />
      <TextField
        label={ADDRESS_LABELS.telNumber}
        name={name('telNumber')}
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        placeholder="0272000000"
        hint="半角数字・ハイフンなしで入力してください。"
        value={values.telNumber}
        onChange={(event) => set('telNumber', digitsOnly(event.target.value))}
        onBlur={() => onBlur('telNumber')}
        error={error('telNumber')}
        required
      />
      <TextField
        label={ADDRESS_LABELS.zip}
        name={name('zip')}
        inputMode="numeric"
        autoComplete="postal-code"
        placeholder="3710023"
        maxLength={8}
        hint={isLookingUp ? '住所を検索しています…' : (zipNote ?? '半角数字7桁・ハイフンなしで入力すると住所を自動で入力します。')}
        value={values.zip}
        onChange={(event) => void onZip(event.target.value)}
        onBlur={() => onBlur('zip')}
        error={error('zip')}
        required
      />
      <FieldFrame label={ADDRESS_LABELS.pref} error={error('pref')}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            className="field__input"
            name={name('pref')}
            autoComplete="address-level1"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={values.pref}
            onChange={(event) => set('pref', event.target.value)}
            required
          >
            {PREFECTURES.map((pref) => (
              <option key={pref} value={pref}>
                {pref}
              </option>
            ))}
          </select>
        )}
      </FieldFrame>
      <TextField
        label={ADDRESS_LABELS.city}
        name={name('city')}
        autoComplete="address-level2"
        value={values.city}
        onChange={(event) => set('city', event.target.value)}
        onBlur={() => onBlur('city')}
        error={error('city')}
        required
      />
      <TextField
        label={ADDRESS_LABELS.address}
        name={name('address')}
        autoComplete="address-line1"
        value={values.address}
        onChange={(event) => set('address', event.target.value)}
        onBlur={() => onBlur('address')}
        error={error('address')}
        required
      />
      <TextField
        label={ADDRESS_LABELS.building}
        name={name('building')}
        autoComplete="address-line2"
        optional
        value={values.building ?? ''}
        onChange={(event) => set('building', event.target.value)}
      />
    </>
  );
}

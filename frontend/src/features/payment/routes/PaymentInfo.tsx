import { useId, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { AddressFields } from '@/components/address/AddressFields';
import { emptyAddress, validateAddress, type AddressField } from '@/components/address/addressRules';
import { EmailField } from '@/components/form/EmailField';
import { LoadError } from '@/components/form/LoadError';
import { FormAlert, Notice } from '@/components/form/Notice';
import { SubmitButton } from '@/components/form/SubmitButton';
import { FieldFrame, TextAreaField, TextField } from '@/components/form/TextField';
import { useForm } from '@/components/form/useForm';
import { PageLoading } from '@/components/PageLoading';
import { paths } from '@/config/paths';
import { getApiErrorBody, getErrorMessage } from '@/lib/apiError';
import { validateEmail, validateText } from '@/lib/validation';
import { usePaymentMemberQuery, useRegisterGuestMutation } from '../api/paymentApi';
import type { AddressInput, Member } from '../api/types';
import { PaymentFlow, type FlowContext } from '../components/PaymentFlow';
import { ReturnSummary } from '../components/ReturnSummary';
import { EXTRA_AMOUNT_MESSAGES, parseExtraAmount } from '../extraAmount';
import { isMonthlyReturn, PAYMENT_MESSAGES, requiredMessage } from '../messages';
import { readStoredLot, readSupportRecord, saveInfoStep, type SupportRecord } from '../supportRecord';

const LOT_OPTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** Return types (spec 001 §3): 0 individual, 1 company, 2 organisation. */
const NAME_FIELD: Record<number, { label: string; required: string }> = {
  0: { label: '表示名', required: PAYMENT_MESSAGES.displaynameRequired },
  1: { label: '企業名', required: PAYMENT_MESSAGES.corporatenameRequired },
  2: { label: '団体名', required: PAYMENT_MESSAGES.organisationRequired },
};

/** An http(s) URL with a dotted host; empty is fine (the site is optional). */
const validateSiteUrl = (value: string): string | null => {
  if (value === '') return null;
  try {
    const url = new URL(value);
    const ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.includes('.');
    return ok ? null : PAYMENT_MESSAGES.urlFormat;
  } catch {
    return PAYMENT_MESSAGES.urlFormat;
  }
};

interface InfoValues {
  lot: string;
  /** 上乗せ支援 as typed: whole yen, '' for none. */
  extraAmount: string;
  supporterName: string;
  corporateurl: string;
  /** The id of the chosen uploaded logo, '' for none. */
  logoId: string;
  anonymous: boolean;
  comment: string;
  additionaldata: string;
  /** 'saved': the member's address on file; 'new': the one typed here. */
  addressChoice: 'saved' | 'new';
  address: AddressInput;
  email: string;
  agreeTerms: boolean;
  notAntisocial: boolean;
}

const initialValues = (flow: FlowContext, record: SupportRecord, member: Member | null): InfoValues => {
  const isCorporate = flow.ret.type === 1 || flow.ret.type === 2;
  const currentLogo = member?.urls.logo[0];
  const sameReturn = record.returnKey === flow.returnKey;
  return {
    lot: String(flow.ret.lotDisable ? 1 : (readStoredLot(flow.returnKey) ?? 1)),
    extraAmount: sameReturn && record.extraAmount ? String(record.extraAmount) : '',
    supporterName: isCorporate
      ? (record.corporatename ?? member?.corporatename ?? '')
      : (record.displayname ?? member?.displayname ?? ''),
    corporateurl: record.corporateurl ?? member?.corporateurl ?? '',
    logoId: String(record.logo?.url_id ?? currentLogo?.id ?? ''),
    anonymous: sameReturn && record.anonymous === true,
    comment: record.comment ?? '',
    additionaldata: record.label === flow.project.additionalData?.label ? (record.additionaldata ?? '') : '',
    addressChoice: member && member.addresses.main.length > 0 && !record.address ? 'saved' : 'new',
    address: record.address ?? emptyAddress(),
    email: record.guestEmail ?? '',
    agreeTerms: false,
    notAntisocial: false,
  };
};

const isBlankAddress = (address: AddressInput): boolean =>
  [address.name, address.telNumber, address.zip, address.city, address.address].every((value) => value.trim() === '');

/** A checkbox with its message, tied together for assistive technology. */
function CheckField({
  name,
  label,
  checked,
  error,
  onChange,
}: {
  name: string;
  label: ReactNode;
  checked: boolean;
  error: string | null;
  onChange: (checked: boolean) => void;
}) {
  const errorId = useId();
  return (
    <div className="field">
      <label className="payment-check">
        <input
          type="checkbox"
          name={name}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
        />
        <span>{label}</span>
      </label>
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

function InfoForm({ flow, member }: { flow: FlowContext; member: Member | null }) {
  const { project, ret } = flow;
  const navigate = useNavigate();
  const [registerGuest] = useRegisterGuestMutation();
  const [addressTouched, setAddressTouched] = useState<Partial<Record<AddressField, boolean>>>({});
  const nameField = NAME_FIELD[ret.type] ?? NAME_FIELD[0]!;
  const isCorporate = ret.type === 1 || ret.type === 2;
  const savedAddress = member?.addresses.main[0] ?? null;
  const addressLabel = ret.addressLabel ?? (ret.addressRequired ? 'お届け先' : null);
  const additional = project.additionalData;
  const maxLot = ret.remaining === null ? 10 : Math.max(1, Math.min(10, ret.remaining));
  // A monthly return takes no extra: it would be charged again every month.
  const monthly = isMonthlyReturn(ret);
  const typesAddress = (values: InfoValues) => addressLabel !== null && (values.addressChoice === 'new' || !savedAddress);

  const form = useForm<InfoValues>({
    initialValues: initialValues(flow, readSupportRecord(), member),
    validators: {
      lot: (lot) => (ret.lotDisable && lot !== '1' ? PAYMENT_MESSAGES.lotDisabled : null),
      extraAmount: (value) => {
        if (monthly) return null;
        const parsed = parseExtraAmount(value);
        return parsed.ok ? null : parsed.error;
      },
      supporterName: (value) =>
        value.trim() === '' ? nameField.required : validateText('companyName', value, nameField.label),
      corporateurl: (value) => (isCorporate ? validateSiteUrl(value.trim()) : null),
      comment: (value) => (value.trim() === '' ? null : validateText('comment', value)),
      additionaldata: (value) => {
        if (!additional) return null;
        if (value.trim() === '') return additional.alert?.trim() || requiredMessage(additional.label);
        return validateText('additionalData', value, additional.label);
      },
      address: (address, values) => {
        if (!typesAddress(values) || addressLabel === null) return null;
        if (isBlankAddress(address)) return requiredMessage(addressLabel);
        return Object.values(validateAddress(address))[0] ?? null;
      },
      email: (email) => (member ? null : validateEmail(email.trim())),
      agreeTerms: (agreed) => (agreed ? null : PAYMENT_MESSAGES.termsNotAccepted),
      notAntisocial: (confirmed) => (confirmed ? null : PAYMENT_MESSAGES.antisocialNotConfirmed),
    },
    failureMessage: (error) => {
      const body = getApiErrorBody(error);
      if (body?.error === 'member_exists' || (body && body.error.startsWith('validation'))) return getErrorMessage(error);
      return PAYMENT_MESSAGES.guestFailed;
    },
    onSubmit: async (values) => {
      let notice: string | null = null;
      const guestEmail = member ? undefined : values.email.trim();
      if (guestEmail !== undefined) {
        const registered = await registerGuest({ email: guestEmail, isGuest: true }).unwrap();
        if (registered.exists) notice = PAYMENT_MESSAGES.guestExists;
      }
      const logo = member?.urls.logo.find((image) => String(image.id) === values.logoId);
      const name = values.supporterName.trim();
      const comment = values.comment.trim();
      const url = values.corporateurl.trim();
      const extra = parseExtraAmount(values.extraAmount);
      saveInfoStep({
        returnKey: flow.returnKey,
        lot: Number(values.lot),
        anonymous: values.anonymous,
        agreeTerms: values.agreeTerms,
        notAntisocial: values.notAntisocial,
        ...(member ? { user_id: member.id } : {}),
        ...(isCorporate ? { corporatename: name, ...(url ? { corporateurl: url } : {}) } : { displayname: name }),
        ...(isCorporate && logo ? { logo: { url_id: logo.id, s3: logo.url } } : {}),
        ...(comment ? { comment } : {}),
        ...(additional ? { label: additional.label, additionaldata: values.additionaldata.trim() } : {}),
        ...(addressLabel !== null && savedAddress && values.addressChoice === 'saved' ? { addressId: savedAddress.id } : {}),
        ...(typesAddress(values) ? { address: trimAddress(values.address) } : {}),
        ...(guestEmail !== undefined ? { guestEmail } : {}),
        ...(!monthly && extra.ok && extra.yen > 0 ? { extraAmount: extra.yen } : {}),
      });
      void navigate(paths.paymentMethod.getHref(flow.projectSlug, flow.returnSlug), {
        state: notice ? { notice } : undefined,
      });
    },
  });

  const { values, setValue } = form;
  // The zip lookup answers after later keystrokes: its change applies to the address as it is then.
  const latestAddress = useRef(values.address);
  latestAddress.current = values.address;
  // A checkbox's message shows once it was used, as a text field's once it was left.
  const [usedChecks, setUsedChecks] = useState<{ agreeTerms?: boolean; notAntisocial?: boolean }>({});
  const checkError = (name: 'agreeTerms' | 'notAntisocial') =>
    form.shownError(name) ?? (usedChecks[name] ? form.errors[name] : null);
  const setCheck = (name: 'agreeTerms' | 'notAntisocial', checked: boolean) => {
    setValue(name, checked);
    setUsedChecks((current) => ({ ...current, [name]: true }));
  };
  const addressError = (field: AddressField) =>
    addressTouched[field] || form.touched.address ? (validateAddress(values.address)[field] ?? null) : null;
  const shownAddressGroupError =
    form.shownError('address') ?? (Object.values(addressTouched).some(Boolean) ? form.errors.address : null);

  if (!ret.purchasable) {
    return (
      <Notice tone="error">
        <p>{ret.blockMessage ?? 'このリターンは現在お申し込みいただけません'}</p>
      </Notice>
    );
  }

  return (
    <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={form.submitting}>
      <FormAlert message={form.formError} />

      <FieldFrame
        label="口数"
        hint={ret.lotDisable ? PAYMENT_MESSAGES.lotDisabled : '1口から10口までお選びいただけます。'}
        error={form.shownError('lot')}
      >
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            name="lot"
            className="field__input"
            value={values.lot}
            disabled={ret.lotDisable}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) => setValue('lot', event.target.value)}
          >
            {LOT_OPTIONS.filter((lot) => lot <= maxLot).map((lot) => (
              <option key={lot} value={lot}>
                {lot}口
              </option>
            ))}
          </select>
        )}
      </FieldFrame>

      <section className="payment-section" aria-labelledby="payment-extra-title">
        <h2 id="payment-extra-title" className="payment-section__title">
          上乗せ支援
        </h2>
        {monthly ? (
          <p>{EXTRA_AMOUNT_MESSAGES.monthly}</p>
        ) : (
          <TextField
            label="上乗せ支援額（円）"
            optional
            inputMode="numeric"
            autoComplete="off"
            placeholder="例：1000"
            hint="リターンの金額に上乗せしてご支援いただけます（1円単位、1,000,000円まで）。上乗せ分に消費税はかからず、リターンの内容は変わりません。"
            {...form.field('extraAmount')}
          />
        )}
      </section>

      <section className="payment-section" aria-labelledby="payment-supporter-title">
        <h2 id="payment-supporter-title" className="payment-section__title">
          支援者情報
        </h2>
        {member ? (
          <p>メールアドレス：{member.email}</p>
        ) : (
          <EmailField
            hint="ご支援の受付やお振込先のご案内をお送りします。"
            {...form.field('email')}
          />
        )}
        <TextField
          label={nameField.label}
          autoComplete={isCorporate ? 'organization' : 'nickname'}
          required
          hint={isCorporate ? undefined : '支援者一覧やコメントに表示されるお名前です。'}
          {...form.field('supporterName')}
          name="supporterName"
        />
        {isCorporate && (
          <>
            <TextField
              label={`${nameField.label}サイトURL`}
              type="url"
              inputMode="url"
              autoComplete="url"
              placeholder="https://example.jp/"
              optional
              {...form.field('corporateurl')}
            />
            {member && (
              <fieldset className="payment-choice">
                <legend>ロゴ</legend>
                {member.urls.logo.map((logo, index) => (
                  <label key={logo.id}>
                    <input
                      type="radio"
                      name="logoId"
                      value={String(logo.id)}
                      checked={values.logoId === String(logo.id)}
                      onChange={() => setValue('logoId', String(logo.id))}
                    />
                    <img className="payment-logo" src={logo.url} alt={`登録済みのロゴ${index + 1}`} />
                  </label>
                ))}
                <label>
                  <input
                    type="radio"
                    name="logoId"
                    value=""
                    checked={values.logoId === ''}
                    onChange={() => setValue('logoId', '')}
                  />
                  <span>ロゴを掲載しない</span>
                </label>
                {member.urls.logo.length === 0 && (
                  <p className="field__hint">ロゴはマイページの「企業情報の編集」から登録できます。</p>
                )}
              </fieldset>
            )}
          </>
        )}
        <CheckField
          name="anonymous"
          label="名前を公開しない（支援者一覧には「匿名」と表示されます）"
          checked={values.anonymous}
          error={null}
          onChange={(checked) => setValue('anonymous', checked)}
        />
        <TextAreaField label="応援コメント" optional rows={3} {...form.field('comment')} />
      </section>

      {additional && (
        <section className="payment-section" aria-labelledby="payment-additional-title">
          <h2 id="payment-additional-title" className="payment-section__title">
            {additional.label}
          </h2>
          {additional.text && <p>{additional.text}</p>}
          {(additional.formLine ?? 1) > 1 ? (
            <TextAreaField
              label={additional.label}
              rows={additional.formLine ?? 3}
              placeholder={additional.description ?? undefined}
              required
              {...form.field('additionaldata')}
            />
          ) : (
            <TextField
              label={additional.label}
              placeholder={additional.description ?? undefined}
              required
              {...form.field('additionaldata')}
            />
          )}
        </section>
      )}

      {addressLabel !== null && (
        <section className="payment-section" aria-labelledby="payment-address-title">
          <h2 id="payment-address-title" className="payment-section__title">
            {addressLabel}
          </h2>
          {savedAddress && (
            <fieldset className="payment-choice">
              <legend className="visually-hidden">{addressLabel}の指定方法</legend>
              <label>
                <input
                  type="radio"
                  name="addressChoice"
                  value="saved"
                  checked={values.addressChoice === 'saved'}
                  onChange={() => setValue('addressChoice', 'saved')}
                />
                <span>
                  登録済みの住所：〒{savedAddress.zip} {savedAddress.pref}
                  {savedAddress.city}
                  {savedAddress.address}
                  {savedAddress.building ? ` ${savedAddress.building}` : ''}（{savedAddress.name}）
                </span>
              </label>
              <label>
                <input
                  type="radio"
                  name="addressChoice"
                  value="new"
                  checked={values.addressChoice === 'new'}
                  onChange={() => setValue('addressChoice', 'new')}
                />
                <span>別の住所を入力する</span>
              </label>
            </fieldset>
          )}
          {shownAddressGroupError && isBlankAddress(values.address) && (
            <p className="field__error" role="alert">
              {shownAddressGroupError}
            </p>
          )}
          {(values.addressChoice === 'new' || !savedAddress) && (
            <AddressFields
              values={values.address}
              onChange={(update) => setValue('address', update(latestAddress.current))}
              error={addressError}
              onBlur={(field) => setAddressTouched((current) => ({ ...current, [field]: true }))}
              namePrefix="address."
            />
          )}
        </section>
      )}

      <section className="payment-section" aria-labelledby="payment-agreements-title">
        <h2 id="payment-agreements-title" className="payment-section__title">
          ご確認事項
        </h2>
        <p>
          <a href={paths.terms.getHref()} target="_blank" rel="noreferrer">
            利用規約（新しいタブで開きます）
          </a>
        </p>
        <CheckField
          name="agreeTerms"
          label="利用規約に同意する"
          checked={values.agreeTerms}
          error={checkError('agreeTerms')}
          onChange={(checked) => setCheck('agreeTerms', checked)}
        />
        <CheckField
          name="notAntisocial"
          label="反社会的勢力ではないことを確認する"
          checked={values.notAntisocial}
          error={checkError('notAntisocial')}
          onChange={(checked) => setCheck('notAntisocial', checked)}
        />
      </section>

      <div className="form__actions">
        <SubmitButton {...form.submitButton}>次へ</SubmitButton>
      </div>
    </form>
  );
}

const trimAddress = (address: AddressInput): AddressInput => ({
  name: address.name.trim(),
  telNumber: address.telNumber,
  zip: address.zip,
  pref: address.pref,
  city: address.city.trim(),
  address: address.address.trim(),
  building: address.building?.trim() || null,
});

function MemberInfoForm({ flow }: { flow: FlowContext }) {
  const { data, isLoading, error, refetch } = usePaymentMemberQuery();
  if (isLoading) return <PageLoading />;
  if (!data) return <LoadError message={getErrorMessage(error)} onRetry={() => void refetch()} />;
  return <InfoForm flow={flow} member={data} />;
}

/** Step 1 (`/payment/info/{project}/{return}/`): lot, names, comment, additional data, address, agreements. */
export function PaymentInfo() {
  return (
    <PaymentFlow step={1} needsLot={false} backHref={({ project }) => paths.project.getHref(project)}>
      {(flow) => (
        <>
          <ReturnSummary project={flow.project} ret={flow.ret} />
          {flow.isMember ? <MemberInfoForm flow={flow} /> : <InfoForm flow={flow} member={null} />}
        </>
      )}
    </PaymentFlow>
  );
}

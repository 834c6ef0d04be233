import { FK_STORAGE_KEY } from '@/lib/storage';
import type { AddressInput, PaymentTypeCode } from './api/types';

export type SupportType = 'login' | 'guest';

/** A logo chosen from the member's uploads (spec 001 §3: logo {s3, url_id}). */
export interface StoredLogo {
  url_id: number;
  s3: string;
}

/**
 * The support record kept in local storage under `fk` (spec 001 §3), with the spec's field names. What step 1
 * collects is kept so a reload or a step back does not lose it; card data never is (the guest's card token lives
 * in memory only). `returnKey` ties the lot to the return it was chosen for.
 */
export interface SupportRecord {
  loginRef?: string;
  supportType?: SupportType;
  user_id?: number;
  returnKey?: string;
  lot?: number;
  comment?: string;
  additionaldata?: string;
  /** The label of the project's additional question the answer belongs to. */
  label?: string;
  displayname?: string;
  corporatename?: string;
  corporateurl?: string;
  logo?: StoredLogo;
  anonymous?: boolean;
  agreeTerms?: boolean;
  notAntisocial?: boolean;
  address?: AddressInput;
  addressId?: number;
  guestEmail?: string;
  /** 上乗せ支援 in whole yen; absent for none. Not part of the spec's record. */
  extraAmount?: number;
}

/** What step 1 stores; cleared after a support except the address and the guest's e-mail (spec 001 §4). */
export type InfoStepRecord = Required<Pick<SupportRecord, 'returnKey' | 'lot' | 'anonymous' | 'agreeTerms' | 'notAntisocial'>> &
  Pick<
    SupportRecord,
    | 'comment'
    | 'additionaldata'
    | 'label'
    | 'displayname'
    | 'corporatename'
    | 'corporateurl'
    | 'logo'
    | 'address'
    | 'addressId'
    | 'guestEmail'
    | 'user_id'
    | 'extraAmount'
  >;

const CLEARED_AFTER_SUPPORT = [
  'returnKey',
  'lot',
  'displayname',
  'corporatename',
  'corporateurl',
  'logo',
  'comment',
  'additionaldata',
  'label',
  'anonymous',
  'agreeTerms',
  'notAntisocial',
  'extraAmount',
] as const satisfies readonly (keyof SupportRecord)[];

export const returnKeyOf = (project: string, ret: string): string => `${project}/${ret}`;

export const readSupportRecord = (): SupportRecord => {
  try {
    const raw = window.localStorage.getItem(FK_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as SupportRecord) : {};
  } catch {
    return {};
  }
};

const writeSupportRecord = (record: SupportRecord): void => {
  window.localStorage.setItem(FK_STORAGE_KEY, JSON.stringify(record));
};

export const readSupportType = (): SupportType | null => {
  const { supportType } = readSupportRecord();
  return supportType === 'login' || supportType === 'guest' ? supportType : null;
};

/** The lot stored for this return, or null when step 1 was not done for it. */
export const readStoredLot = (returnKey: string): number | null => {
  const { lot, returnKey: stored } = readSupportRecord();
  return stored === returnKey && typeof lot === 'number' && Number.isInteger(lot) && lot >= 1 && lot <= 10 ? lot : null;
};

/** Step 1's answers replace the previous ones; fields the new answers leave out are dropped. */
export const saveInfoStep = (info: InfoStepRecord): void => {
  const record = readSupportRecord();
  for (const key of CLEARED_AFTER_SUPPORT) delete record[key];
  delete record.address;
  delete record.addressId;
  writeSupportRecord({ ...record, ...info });
};

/** After a support is placed (spec 001 §4): lot, names, logo, comment and additional data are forgotten. */
export const clearAfterSupport = (): void => {
  const record = readSupportRecord();
  for (const key of CLEARED_AFTER_SUPPORT) delete record[key];
  writeSupportRecord(record);
};

// Session storage: the confirm attempt's key and the placed support's receipt survive a reload of the tab,
// not the tab itself.
const ATTEMPT_KEY = 'payment.attempt';
const RECEIPT_KEY = 'payment.receipt';

interface Attempt {
  key: string;
  /** What the key was used for: a changed request gets a new key, so the server never mixes two supports. */
  terms: string | null;
}

const readJson = <T>(key: string): T | null => {
  try {
    const raw = window.sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
};

/** The key of the current confirm attempt; made when the confirm page is entered. */
export const currentAttemptKey = (): string => {
  const stored = readJson<Attempt>(ATTEMPT_KEY);
  if (stored && typeof stored.key === 'string') return stored.key;
  const attempt: Attempt = { key: crypto.randomUUID(), terms: null };
  window.sessionStorage.setItem(ATTEMPT_KEY, JSON.stringify(attempt));
  return attempt.key;
};

/** The key to send with `terms`: the current one, unless it was already sent with other terms. */
export const attemptKeyFor = (terms: string): string => {
  const stored = readJson<Attempt>(ATTEMPT_KEY);
  const key = stored && (stored.terms === null || stored.terms === terms) ? stored.key : crypto.randomUUID();
  window.sessionStorage.setItem(ATTEMPT_KEY, JSON.stringify({ key, terms } satisfies Attempt));
  return key;
};

/** The server answered for good (placed, refused or declined): the next attempt is a new support. */
export const endAttempt = (): void => {
  window.sessionStorage.removeItem(ATTEMPT_KEY);
};

export interface StoredReceipt {
  receipt: string;
  returnKey: string;
  paymentType: PaymentTypeCode;
}

export const storeReceipt = (receipt: StoredReceipt): void => {
  window.sessionStorage.setItem(RECEIPT_KEY, JSON.stringify(receipt));
};

export const readReceipt = (returnKey: string): StoredReceipt | null => {
  const stored = readJson<StoredReceipt>(RECEIPT_KEY);
  return stored && stored.returnKey === returnKey && typeof stored.receipt === 'string' ? stored : null;
};

import type { Schemas } from '@/lib/apiTypes';

/** A delivery address as a form edits it (accounts API contract). */
export type AddressInput = Omit<Schemas['AddressDto'], 'id'>;

export const PREFECTURES = [
  '北海道', '青森県', '岩手県', '宮城県', '秋田県', '山形県', '福島県',
  '茨城県', '栃木県', '群馬県', '埼玉県', '千葉県', '東京都', '神奈川県',
  '新潟県', '富山県', '石川県', '福井県', '山梨県', '長野県', '岐阜県', '静岡県', '愛知県',
  '三重県', '滋賀県', '京都府', '大阪府', '兵庫県', '奈良県', '和歌山県',
  '鳥取県', '島根県', '岡山県', '広島県', '山口県',
  '徳島県', '香川県', '愛媛県', '高知県',
  '福岡県', '佐賀県', '長崎県', '熊本県', '大分県', '宮崎県', '鹿児島県', '沖縄県',
] as const;

/** Spec 000 §9 and 001 §9: the default prefecture is Gunma. */
export const DEFAULT_PREFECTURE = '群馬県';

export const ADDRESS_MESSAGES = {
  nameRequired: 'お名前を入力してください。',
  telRequired: '電話番号を入力してください。',
  telFormat: '電話番号は半角数字10〜11桁（ハイフンなし）で入力してください。',
  zipRequired: '郵便番号を入力してください。',
  zipFormat: '郵便番号は半角数字7桁（ハイフンなし）で入力してください。',
  prefRequired: '都道府県を選択してください。',
  cityRequired: '市区町村を入力してください。',
  addressRequired: '番地を入力してください。',
  zipNotFound: 'この郵便番号に該当する住所が見つかりませんでした。住所を直接入力してください。',
  failed: '住所の登録に失敗しました。',
  registered: 'お届け先を登録しました',
  updated: 'お届け先を更新しました',
} as const;

export type AddressField = keyof AddressInput;

/** Digits typed in full width become half-width; anything else (hyphens, spaces) is dropped. */
export const digitsOnly = (value: string): string =>
  value.replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0)).replace(/[^0-9]/g, '');

export const ADDRESS_LABELS: Record<AddressField, string> = {
  name: 'お名前',
  telNumber: '電話番号',
  zip: '郵便番号',
  pref: '都道府県',
  city: '市区町村',
  address: '番地',
  building: '建物名・部屋番号',
};

export const ADDRESS_FIELD_ORDER: AddressField[] = ['name', 'telNumber', 'zip', 'pref', 'city', 'address', 'building'];

export const emptyAddress = (): AddressInput => ({
  name: '',
  telNumber: '',
  zip: '',
  pref: DEFAULT_PREFECTURE,
  city: '',
  address: '',
  building: '',
});
export type AddressErrors = Partial<Record<AddressField, string>>;

const TEL_PATTERN = /^[0-9]{10,11}$/;
export const ZIP_PATTERN = /^[0-9]{7}$/;

/** Spec 001 §5: all but the building are required; tel and zip are half-width digits without hyphens. */
export const validateAddress = (value: AddressInput): AddressErrors => {
  const errors: AddressErrors = {};
  if (value.name.trim() === '') errors.name = ADDRESS_MESSAGES.nameRequired;
  if (value.telNumber === '') errors.telNumber = ADDRESS_MESSAGES.telRequired;
  else if (!TEL_PATTERN.test(value.telNumber)) errors.telNumber = ADDRESS_MESSAGES.telFormat;
  if (value.zip === '') errors.zip = ADDRESS_MESSAGES.zipRequired;
  else if (!ZIP_PATTERN.test(value.zip)) errors.zip = ADDRESS_MESSAGES.zipFormat;
  if (!(PREFECTURES as readonly string[]).includes(value.pref)) errors.pref = ADDRESS_MESSAGES.prefRequired;
  if (value.city.trim() === '') errors.city = ADDRESS_MESSAGES.cityRequired;
  if (value.address.trim() === '') errors.address = ADDRESS_MESSAGES.addressRequired;
  return errors;
};

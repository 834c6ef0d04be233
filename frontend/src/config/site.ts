/** The product name, used in page titles, the header logo and the footer. */
export const SITE_NAME = 'ぐんまクラウドファンディング';

/** Default meta description, used when a route sets none. */
export const SITE_DESCRIPTION =
  '群馬の地域の挑戦を、みんなの支援で後押しするクラウドファンディングサイトです。';

/** Formats a document title as `{title} | {site name}`. */
export const formatPageTitle = (title: string): string => `${title} | ${SITE_NAME}`;

/**
 * The operator shown on the legal pages. The server may inject the real values as
 * `window.__SITE_CONFIG__ = { operator: {...} }`; otherwise these placeholders (which
 * deliberately name no real company) are used.
 */
export interface OperatorConfig {
  /** 販売事業者 / 運営者 */
  name: string;
  /** 運営責任者 */
  representative: string;
  /** 所在地 */
  address: string;
  /** 電話番号 */
  phone: string;
  /** メールアドレス */
  email: string;
  /** 問い合わせ受付時間 */
  hours: string;
}

export interface SiteConfig {
  operator: OperatorConfig;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  operator: {
    name: '株式会社ぐんま地域新聞（運営事務局）',
    representative: '運営事務局長',
    address: '〒371-0000 群馬県前橋市本町一丁目1番1号',
    phone: '027-000-0000',
    email: 'support@example.jp',
    hours: '平日 10:00〜17:00（土日祝日・年末年始を除く）',
  },
};

declare global {
  interface Window {
    __SITE_CONFIG__?: { operator?: Partial<OperatorConfig> };
  }
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The site configuration: the server's injected values over the defaults, field by field. */
export const getSiteConfig = (): SiteConfig => {
  const injected = typeof window === 'undefined' ? undefined : window.__SITE_CONFIG__?.operator;
  const operator = { ...DEFAULT_SITE_CONFIG.operator };
  if (injected) {
    for (const key of Object.keys(operator) as Array<keyof OperatorConfig>) {
      const value = injected[key];
      if (nonEmpty(value)) operator[key] = value;
    }
  }
  return { operator };
};

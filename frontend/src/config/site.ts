/** The product name, used in page titles, the header logo and the footer. */
export const SITE_NAME = 'ぐんまクラウドファンディング';

/** Default meta description, used when a route sets none. */
export const SITE_DESCRIPTION =
  '群馬の地域の挑戦を、みんなの支援で後押しするクラウドファンディングサイトです。';

/** Formats a document title as `{title} | {site name}`. */
export const formatPageTitle = (title: string): string => `${title} | ${SITE_NAME}`;

/**
 * The operator shown on the legal pages, in the footer and in mails. The server writes the values it is
 * configured with (`OPERATOR_*`, README) into every page as `<script id="site-config"
 * type="application/json">{"operator": {...}}</script>`; without it (tests, a bare build) these
 * placeholders, which deliberately name no real company, are used. Production refuses to start with them.
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
  /** The site's public address (`PUBLIC_URL`, no trailing slash): what share links point to. */
  publicUrl: string;
}

export const DEFAULT_SITE_CONFIG: Pick<SiteConfig, 'operator'> = {
  operator: {
    name: '株式会社ぐんま地域新聞（運営事務局）',
    representative: '運営事務局長',
    address: '〒371-0000 群馬県前橋市本町一丁目1番1号',
    phone: '027-000-0000',
    email: 'support@example.jp',
    hours: '平日 10:00〜17:00（土日祝日・年末年始を除く）',
  },
};

/** The id of the data block the server writes into every page (adapters-http `SITE_CONFIG_ELEMENT_ID`). */
export const SITE_CONFIG_ELEMENT_ID = 'site-config';

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The block's content given by the server renderer, which has no page to read it from. */
let rendererBlock: unknown;

/** The server renderer's way of giving the page's site configuration block (`src/server/render.tsx`). */
export const provideSiteConfigBlock = (block: unknown): void => {
  rendererBlock = block;
};

/** The configuration block the page carries, or nothing when there is no (readable) block. */
const embeddedBlock = (): Record<string, unknown> | undefined => {
  let parsed: unknown = rendererBlock;
  if (parsed === undefined && typeof document !== 'undefined') {
    const text = document.getElementById(SITE_CONFIG_ELEMENT_ID)?.textContent;
    if (!text) return undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
  }
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
};

const origin = (): string => (typeof window === 'undefined' ? '' : window.location.origin);

/** The site configuration: the server's values over the defaults, field by field. */
export const getSiteConfig = (): SiteConfig => {
  const block = embeddedBlock();
  const injected = block?.operator as Partial<Record<keyof OperatorConfig, unknown>> | null | undefined;
  const operator = { ...DEFAULT_SITE_CONFIG.operator };
  if (typeof injected === 'object' && injected !== null) {
    for (const key of Object.keys(operator) as Array<keyof OperatorConfig>) {
      const value = injected[key];
      if (nonEmpty(value)) operator[key] = value;
    }
  }
  const publicUrl = nonEmpty(block?.publicUrl) ? block.publicUrl.replace(/\/+$/, '') : origin();
  return { operator, publicUrl };
};

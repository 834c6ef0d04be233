/** The product name, used in page titles, the header logo and the footer. */
export const SITE_NAME = 'ぐんまクラウドファンディング';

/** Default meta description, used when a route sets none. */
export const SITE_DESCRIPTION =
  '群馬の地域の挑戦を、みんなの支援で後押しするクラウドファンディングサイトです。';

/** Formats a document title as `{title} | {site name}`. */
export const formatPageTitle = (title: string): string => `${title} | ${SITE_NAME}`;

import { expect } from '@playwright/test';

/** The mail catcher's REST API (maildev 3.x). */
export const MAILDEV_URL = process.env.MAILDEV_URL ?? 'http://127.0.0.1:1080';

export interface CaughtMail {
  id: string;
  subject: string;
  text?: string;
  html?: string;
  to: Array<{ address: string; name?: string }>;
}

const fetchMails = async (): Promise<CaughtMail[]> => {
  const response = await fetch(`${MAILDEV_URL}/api/email`);
  if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
  return (await response.json()) as CaughtMail[];
};

const isTo = (address: string) => (mail: CaughtMail) =>
  mail.to.some((recipient) => recipient.address.toLowerCase() === address.toLowerCase());

/** Waits until at least `count` mails to `address` have arrived, and returns them (oldest first). */
export const waitForMails = async (address: string, count = 1, timeout = 30_000): Promise<CaughtMail[]> => {
  let mails: CaughtMail[] = [];
  await expect
    .poll(
      async () => {
        mails = (await fetchMails()).filter(isTo(address));
        return mails.length;
      },
      { timeout, intervals: [250, 500, 1_000], message: `mail to ${address}` },
    )
    .toBeGreaterThanOrEqual(count);
  return mails;
};

/** The body of a mail, HTML and plain text together, with HTML entities of URLs undone. */
export const mailBody = (mail: CaughtMail): string =>
  `${mail.text ?? ''}\n${mail.html ?? ''}`.replaceAll('&amp;', '&');

import { http, HttpResponse } from 'msw';
import { apiUrl, server } from '@/testing/server';
import type { SaleReceipt } from '../types';

/** A paid sale's receipt, never issued, of a project without issuer data (the operator receives on its behalf). */
export const saleReceipt = (overrides: Partial<SaleReceipt> = {}): SaleReceipt => ({
  saleId: 41,
  receiptNumber: 'R00000041',
  kind: 'sale',
  title: '領収書',
  nextTitle: '領収書',
  issuedCount: 0,
  addressee: '群馬 太郎',
  defaultAddressee: '群馬 太郎',
  paidOn: '2026-12-02',
  issuedOn: null,
  purpose: '「前橋ばら園」へのご支援として',
  amount: 6600,
  paidTotal: 6600,
  refunded: 0,
  refundNote: null,
  lines: [{ description: '前橋ばら園（お礼のメール）', lots: 2, amount: 6600, rateLabel: '10%対象' }],
  rates: [{ label: '10%対象', ratePercent: 10, total: 6600, tax: 600 }],
  issuer: { name: '上毛新聞社', registrationNumber: null, onBehalfOf: '前橋ばら園の会' },
  qualifiedInvoice: false,
  ...overrides,
});

/** The receipt as the server answers after one more issue with `addressee` (null: the default). */
export const issuedFrom = (receipt: SaleReceipt, addressee: string | null): SaleReceipt => {
  const issuedCount = receipt.issuedCount + 1;
  const reissue = issuedCount > 1;
  return {
    ...receipt,
    issuedCount,
    addressee: addressee ?? receipt.defaultAddressee,
    title: reissue ? '領収書（再発行）' : '領収書',
    nextTitle: '領収書（再発行）',
    receiptNumber: reissue ? `R${String(receipt.saleId).padStart(8, '0')}-${issuedCount}` : receipt.receiptNumber,
    issuedOn: '2026-12-03',
  };
};

/**
 * Answers the receipt at `path` (`/user/receipts/41` or `/receipts/{token}`) and its issues like the server: each
 * issue counts one more and prints the addressee sent. Records the bodies of the issues.
 */
export const serveReceipt = (path: string, first: SaleReceipt = saleReceipt()) => {
  let current = first;
  const issues: { addressee: string | null }[] = [];
  server.use(
    http.get(apiUrl(path), () => HttpResponse.json(current)),
    http.post(apiUrl(`${path}/issue`), async ({ request }) => {
      const body = (await request.json()) as { addressee: string | null };
      issues.push(body);
      current = issuedFrom(current, body.addressee);
      return HttpResponse.json(current);
    }),
  );
  return issues;
};

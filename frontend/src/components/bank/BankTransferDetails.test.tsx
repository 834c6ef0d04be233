import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BankTransferDetails } from './BankTransferDetails';

const bank = {
  amountRemaining: 10000,
  reference: 'R0HZEPBO',
  bankName: 'ローカル銀行',
  branchName: 'テスト支店',
  accountTypeLabel: '普通',
  accountNumber: '3203376',
  accountHolderName: 'ﾛｰｶﾙｽﾄﾗｲﾌﾟ(ｶ',
  deadline: '2026-12-01',
  deadlineText: 'お申込日の翌日から3営業日以内（土日・祝日・年末年始を除く）',
};

/** The value beside a term. */
const valueOf = (term: string): HTMLElement => screen.getByText(term, { selector: 'dt' }).nextElementSibling as HTMLElement;

describe('BankTransferDetails', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps every value typed by hand in one unbreakable piece, the value alone as its text', () => {
    render(<BankTransferDetails bank={bank} />);

    for (const [term, value] of [
      ['お振込金額', '10,000円'],
      ['口座番号', '3203376'],
      ['お振込人名の前に付ける番号', 'R0HZEPBO'],
      ['お振込期限', '2026年12月1日'],
    ] as const) {
      const dd = valueOf(term);
      expect(dd).toHaveTextContent(new RegExp(`^${value}$`));
      expect(within(dd).getByText(value)).toHaveClass('nowrap');
      expect(dd.querySelector('[style]')).toBeNull();
    }
  });

  it('has a copy button with a Japanese name for each of them', () => {
    render(<BankTransferDetails bank={bank} />);

    for (const name of ['お振込金額をコピー', '口座番号をコピー', 'お振込人名の前に付ける番号をコピー', 'お振込期限をコピー']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: '金融機関をコピー' })).not.toBeInTheDocument();
  });

  it('copies the value and says so in a status region', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<BankTransferDetails bank={bank} />);

    await user.click(screen.getByRole('button', { name: '口座番号をコピー' }));

    expect(writeText).toHaveBeenCalledWith('3203376');
    const status = within(valueOf('口座番号')).getByRole('status');
    expect(status).toHaveTextContent('コピーしました');
    expect(within(valueOf('お振込金額')).getByRole('status')).toBeEmptyDOMElement();
  });

  it('tells the supporter to select it by hand where the clipboard is refused', async () => {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', {
      value: { writeText: () => Promise.reject(new Error('denied')) },
      configurable: true,
    });
    render(<BankTransferDetails bank={bank} />);

    await user.click(screen.getByRole('button', { name: 'お振込人名の前に付ける番号をコピー' }));

    expect(within(valueOf('お振込人名の前に付ける番号')).getByRole('status')).toHaveTextContent('コピーできませんでした');
  });

  it('clears the status after a while', async () => {
    // Fake time that moves only when the test says so: a slow machine cannot clear the status before it is read.
    vi.useFakeTimers();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.resolve() }, configurable: true });
    render(<BankTransferDetails bank={bank} />);

    fireEvent.click(screen.getByRole('button', { name: 'お振込金額をコピー' }));
    const status = within(valueOf('お振込金額')).getByRole('status');
    await act(async () => {}); // the clipboard's promise settles
    expect(status).toHaveTextContent('コピーしました');
    act(() => vi.advanceTimersByTime(5_000));
    expect(status).toBeEmptyDOMElement();
  });
});

/**
 * The bank-transfer deadline, worded once for the terms, the commercial notice and the payment screens.
 * It must equal `domain::payment::BANK_TRANSFER_DEADLINE_TEXT` (a Rust test reads this file): 3 business days
 * counted from the day after the order, skipping weekends, public holidays and the 12/31-1/3 bank holidays.
 */
export const BANK_TRANSFER_DEADLINE_TEXT = 'お申込日の翌日から3営業日以内（土日・祝日・年末年始を除く）';

import { ComingSoon } from '@/components/ComingSoon';

export const PaymentInfo = ComingSoon;
export const PaymentMethod = ComingSoon;
export const PaymentCard = ComingSoon;
export const PaymentBank = ComingSoon;
export const PaymentConfirm = ComingSoon;
export const PaymentComplete = ComingSoon;

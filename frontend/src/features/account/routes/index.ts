import { ComingSoon } from '@/components/ComingSoon';

export const Account = ComingSoon;
export const EditProfile = ComingSoon;
export const EditEmail = ComingSoon;
export const EditEmailUpdated = ComingSoon;
export const EditPassword = ComingSoon;
export const EditCorporate = ComingSoon;
export const EditAddresses = ComingSoon;
export const EditPayment = ComingSoon;
export const EditPaymentList = ComingSoon;

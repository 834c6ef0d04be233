import { ComingSoon } from '@/components/ComingSoon';

export { Signup } from './Signup';
export const Login = ComingSoon;
export const SignupPassword = ComingSoon;
export const ForgotPassword = ComingSoon;
export const ResetPassword = ComingSoon;

export { Signup } from './Signup';
export { Login } from './Login';
export { SignupPassword } from './SignupPassword';
export { ForgotPassword } from './ForgotPassword';
export { ResetPassword } from './ResetPassword';

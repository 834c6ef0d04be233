// The e-mail and password rules are shared with the account screens; they live in `@/lib/validation`.
export { EMAIL_MESSAGES, validateEmail } from '@/lib/validation';

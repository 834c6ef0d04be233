export { MailOptOut } from './MailOptOut';

export { createMailer, REQUIRED_SMTP_PORT, type Mailer, type MailConfig, type OutgoingMail } from './mailer.js';
export { DevMailServer, type ReceivedMail } from './dev-mail-server.js';

import nodemailer, { type Transporter } from 'nodemailer';
import { DevMailServer } from './dev-mail-server.js';

/** SMTP settings (spec §5 rule 5). Without `host`, mail goes to an in-process server. */
export interface MailConfig {
  host?: string;
  port?: number;
  user?: string;
  pass?: string;
  from: string;
  /** Where the in-process server also writes what it receives (development only). */
  devSpoolDir?: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  /** The in-process server when no SMTP host is configured (development, tests). */
  devServer?: DevMailServer;
  close(): Promise<void>;
}

/** The submission port the specification requires when SMTP is configured. */
export const REQUIRED_SMTP_PORT = 587;

export async function createMailer(config: MailConfig): Promise<Mailer> {
  if (config.host) {
    if (config.port !== REQUIRED_SMTP_PORT) throw new Error(`SMTP_PORT must be ${REQUIRED_SMTP_PORT}`);
    // Port 587 is message submission: STARTTLS is required so credentials never go in clear.
    const transport = nodemailer.createTransport({
      host: config.host,
      port: REQUIRED_SMTP_PORT,
      secure: false,
      requireTLS: true,
      ...(config.user ? { auth: { user: config.user, pass: config.pass ?? '' } } : {}),
    });
    return wrap(transport, config.from);
  }
  const devServer = new DevMailServer(config.devSpoolDir);
  const port = await devServer.start();
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  const mailer = wrap(transport, config.from);
  return {
    ...mailer,
    devServer,
    close: async () => {
      await mailer.close();
      await devServer.stop();
    },
  };
}

function wrap(transport: Transporter, from: string): Mailer {
  return {
    send: async (mail) => {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: async () => transport.close(),
  };
}

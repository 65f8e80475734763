import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  receivedAt: string;
}

const OUTBOX_LIMIT = 200;

/**
 * A real SMTP server on loopback that keeps what it receives: the mail path of development
 * and tests is the production one (nodemailer speaking SMTP), only the far end is ours.
 * With `spoolDir`, each message is also written there as JSON so that another process (the
 * demo script) can read the codes it carries.
 */
export class DevMailServer {
  private readonly messages: ReceivedMail[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly server: SMTPServer;
  port = 0;

  constructor(private readonly spoolDir?: string) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      // close() waits for open connections this long before cutting them (smtp-server's
      // default is 30 s): a dev server's stop must not hang a test's teardown or Ctrl-C.
      closeTimeout: 1_000,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((parsed) => this.store(parsed))
          .then(() => callback(), (error: Error) => callback(error));
      },
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    return this.port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Messages received for an address, oldest first. */
  inbox(address: string): ReceivedMail[] {
    const wanted = address.toLowerCase();
    return this.messages.filter((m) => m.to.includes(wanted));
  }

  /** Waits for the `count`-th message to an address (1 = the first ever received). */
  async waitFor(address: string, count = 1, timeoutMs = 5000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.inbox(address)[count - 1];
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail #${count} for ${address} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private async store(parsed: Awaited<ReturnType<typeof simpleParser>>): Promise<void> {
    const toField = Array.isArray(parsed.to) ? parsed.to : parsed.to ? [parsed.to] : [];
    const mail: ReceivedMail = {
      to: toField.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase())),
      from: parsed.from?.value[0]?.address ?? '',
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      receivedAt: new Date().toISOString(),
    };
    this.messages.push(mail);
    if (this.messages.length > OUTBOX_LIMIT) this.messages.shift();
    if (this.spoolDir) {
      await mkdir(this.spoolDir, { recursive: true });
      const name = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`;
      await writeFile(join(this.spoolDir, name), JSON.stringify(mail, null, 2));
    }
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }
}

import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMailer } from '../src/index.js';

describe('createMailer', () => {
  it('delivers over SMTP to the in-process server when no host is configured', async () => {
    const spool = await mkdtemp(join(tmpdir(), 'mail-'));
    const mailer = await createMailer({ from: 'wallet@example.com', devSpoolDir: spool });
    try {
      await mailer.send({ to: 'Alice@Example.com', subject: 'Your code', text: 'Code: 123456' });
      const mail = await mailer.devServer!.waitFor('alice@example.com');
      expect(mail).toMatchObject({ to: ['alice@example.com'], from: 'wallet@example.com', subject: 'Your code' });
      expect(mail.text.trim()).toBe('Code: 123456');
      const files = await readdir(spool);
      expect(files).toHaveLength(1);
      expect(JSON.parse(await readFile(join(spool, files[0]!), 'utf8')).subject).toBe('Your code');
    } finally {
      await mailer.close();
    }
  });

  it('refuses a configured SMTP port other than 587', async () => {
    await expect(createMailer({ host: 'smtp.example.com', port: 25, from: 'a@example.com' })).rejects.toThrow('SMTP_PORT must be 587');
  });
});
